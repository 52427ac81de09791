import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { deployment, pdb } from '../rules/manifests';

// Identities written the same in both folders: shop/web and its PDB shop/web.
const web = (replicas: number) => deployment({ namespace: 'shop', spec: `  replicas: ${replicas}\n` });
const webPdb = (minAvailable: number) => pdb(`  minAvailable: ${minAvailable}\n`, { name: 'web', namespace: 'shop' });

describe('one identity defined in several environment folders', () => {
  const inventory = new Inventory();
  const files = {
    devDeployment: parseManifest('file:///repo/envs/dev/deployment.yaml', web(2)),
    devPdb: parseManifest('file:///repo/envs/dev/pdb.yaml', webPdb(1)),
    prodDeployment: parseManifest('file:///repo/envs/prod/deployment.yaml', web(4)),
    prodPdb: parseManifest('file:///repo/envs/prod/pdb.yaml', webPdb(3)),
  };
  for (const file of Object.values(files)) inventory.setFile(file);

  it('relates each PDB to the Deployment of its own folder, counted once', () => {
    assert.deepEqual(inventory.workloadsSelectedBy(files.prodPdb.resources[0]), [files.prodDeployment.resources[0]]);
    assert.deepEqual(inventory.pdbsSelecting(files.devDeployment.resources[0]), [files.devPdb.resources[0]]);
    assert.equal(inventory.expectedPods(files.prodPdb.resources[0]).count, 4);
  });

  it('reports no pdb-multiple: each folder holds one PDB for its pods', () => {
    const findings = Object.values(files).flatMap((file) => analyzeFile(file, inventory));
    assert.deepEqual(findings.filter((f) => f.ruleId === 'pdb-multiple' || f.ruleId === 'pdb-blocks-eviction'), []);
  });

  it('still reports two PDBs of one folder that select the same pods', () => {
    const second = parseManifest('file:///repo/envs/prod/pdb-2.yaml', pdb('  minAvailable: 1\n', { name: 'web-2', namespace: 'shop' }));
    inventory.setFile(second);
    const findings = analyzeFile(files.prodPdb, inventory).filter((f) => f.ruleId === 'pdb-multiple');
    inventory.removeFile(second.uri);
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /^PodDisruptionBudget shop\/web shares its pods with another PDB: .* PodDisruptionBudget shop\/web and PodDisruptionBudget shop\/web-2 both select the pods of Deployment shop\/web,/);
  });
});

describe('one identity written the same, to the character, in several environment folders', () => {
  // The same text parses to one object, shared by both files: the inventory's answers about one resource
  // (kept by its object) were the first folder's for the other's too.
  const inventory = new Inventory();
  const files = ['dev', 'prod'].flatMap((env) => [parseManifest(`file:///repo/envs/${env}/deployment.yaml`, web(3)), parseManifest(`file:///repo/envs/${env}/pdb.yaml`, webPdb(1))]);
  for (const file of files) inventory.setFile(file);
  const [devDeployment, devPdb, prodDeployment, prodPdb] = files.map((file) => file.resources[0]);

  it('relates each PDB to the Deployment of its own folder, whichever was asked about first', () => {
    assert.ok(devDeployment.object === prodDeployment.object && devPdb.object === prodPdb.object, 'the two folders\' resources share their parsed objects, as this case needs');
    assert.deepEqual(inventory.workloadsSelectedBy(devPdb), [devDeployment]);
    assert.deepEqual(inventory.workloadsSelectedBy(prodPdb), [prodDeployment]);
    assert.deepEqual(inventory.pdbsSelecting(devDeployment), [devPdb]);
    assert.deepEqual(inventory.pdbsSelecting(prodDeployment), [prodPdb]);
  });

  it('reports no pdb-multiple in either folder', () => {
    const findings = files.flatMap((file) => analyzeFile(file, inventory));
    assert.deepEqual(findings.filter((f) => f.ruleId === 'pdb-multiple').map((f) => f.uri), []);
  });
});
