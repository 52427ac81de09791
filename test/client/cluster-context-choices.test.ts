import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextChoices } from '../../client/src/cluster/context-choices';
import { listContexts } from '../../server/src/cluster/contexts';

const kubeconfig = { path: '/home/ada/.kube/config', text: 'current-context: prod\ncontexts:\n  - name: prod\n    context: { cluster: prod, user: ada }\n  - name: staging\n    context: { cluster: staging, user: ada }\n' };

describe('Select Context choices', () => {
  it('lists every context, marks the one in use, and asks which to read', () => {
    const { contexts, demo, placeHolder } = contextChoices(listContexts([kubeconfig]), { cluster: 'auto' });
    assert.deepEqual(contexts.map((c) => [c.label, c.description]), [['prod', 'in use · current-context'], ['staging', '']]);
    assert.deepEqual(demo.choice, { demo: true });
    assert.equal(placeHolder, 'Which cluster should the advisor read?');
  });

  it('with no context, offers only choosable items (the demo) and says where it looked in the placeholder', () => {
    const missing = { path: '/home/ada/.kube/config', text: undefined };
    const { contexts, demo, placeHolder } = contextChoices(listContexts([missing]), { cluster: 'auto' });
    assert.deepEqual(contexts, [], 'no unchoosable "No contexts found" item for Enter to land on');
    assert.equal(demo.label, 'Embedded demo cluster');
    assert.match(placeHolder, /^No contexts in \/home\/ada\/\.kube\/config.*: the demo cluster needs none$/);
  });

  it('marks no context in use when no cluster is read (cluster: off)', () => {
    const { contexts, demo } = contextChoices(listContexts([kubeconfig]), { cluster: 'off' });
    assert.deepEqual(contexts.map((c) => [c.label, c.description]), [['prod', 'current-context'], ['staging', '']]);
    assert.equal(demo.description, 'no kubeconfig needed', 'nor the demo');
  });

  it("shows `$(…)` in a context's name, cluster, user or file as written, not as an icon, and chooses the context by its name", () => {
    const odd = { path: '/home/ada/$(home)/config', text: 'contexts:\n  - name: dev-$(zap)\n    context: { cluster: $(cloud), user: ada }\n' };
    const [context] = contextChoices(listContexts([odd]), { cluster: 'auto' }).contexts;
    assert.equal(context.label, 'dev-\\$(zap)');
    assert.equal(context.detail, 'cluster \\$(cloud) · user ada · /home/ada/\\$(home)/config');
    assert.deepEqual(context.choice, { context: 'dev-$(zap)' });
  });

  it('marks the demo in use when it is chosen', () => {
    assert.equal(contextChoices(listContexts([kubeconfig]), { cluster: 'demo' }).demo.description, 'in use');
  });
});
