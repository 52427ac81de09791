import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|js|mjs)$/.test(name) ? [path] : [];
  });
}

const FILES = ['server/src', 'client/src', 'media'].flatMap(sources).map((path) => ({ path: relative('.', path).split('\\').join('/'), text: readFileSync(path, 'utf8') }));
const NETWORK_MODULE = /from '(node:)?(https?|http2|net|tls|dgram)'|from 'undici'|require\('(node:)?(https?|http2|net|tls)'\)/;

// The cluster is only ever read: there is one door to the API server, and it only opens for GET.
describe('one place talks to an API server, and it can only read', () => {
  it('only api-get.ts sends requests; connection.ts only makes the agent they travel by', () => {
    assert.deepEqual(FILES.filter((f) => NETWORK_MODULE.test(f.text)).map((f) => f.path).sort(), ['server/src/cluster/api-get.ts', 'server/src/cluster/connection.ts']);
    const connection = FILES.find((f) => f.path === 'server/src/cluster/connection.ts')!.text;
    assert.doesNotMatch(connection, /\.(request|get)\(|\.connect\(/);
    const requests = FILES.filter((f) => /\bhttps?\.(request|get)\b|(?<![.\w])fetch\(|new WebSocket\(/.test(f.text)).map((f) => f.path);
    assert.deepEqual(requests, ['server/src/cluster/api-get.ts']);
  });

  it('api-get.ts exports one function, apiGet, whose method is GET and nothing else', () => {
    const apiGet = FILES.find((f) => f.path === 'server/src/cluster/api-get.ts')!.text;
    const exportedFunctions = [...apiGet.matchAll(/export (?:async )?function (\w+)/g)].map((m) => m[1]);
    assert.deepEqual(exportedFunctions, ['apiGet']);
    assert.deepEqual([...apiGet.matchAll(/method\s*:\s*([^,}]+)/g)].map((m) => m[1].trim()), ["'GET'"]);
    assert.doesNotMatch(apiGet, /\.write\(|setHeader\(/, 'a GET sends no body and no header of its own');
  });

  it('uses nothing of client-node that could send a request: only KubeConfig and its types', () => {
    const imported = FILES.flatMap((f) =>
      [...f.text.matchAll(/(?:import|export) (type )?\{([^}]*)\} from '@kubernetes\/client-node(?:\/[^']*)?'/g)].flatMap((m) => m[2].split(',').map((name) => name.replace(/\btype\b/, '').trim()).filter(Boolean)),
    );
    assert.deepEqual([...new Set(imported)].sort(), ['Cluster', 'Context', 'KubeConfig', 'User']);
    assert.ok(!FILES.some((f) => /(?:import|export) \* (?:as \w+ )?from '@kubernetes\/client-node|require\(['"]@kubernetes\/client-node/.test(f.text)), 'client-node is named, never taken whole');
    assert.ok(!FILES.some((f) => /makeApiClient|KubernetesObjectApi|\bWatch\b|\bInformer\b/.test(f.text)));
  });
});
