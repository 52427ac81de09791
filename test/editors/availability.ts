/**
 * Whether an editor suite must skip: only off CI, and loudly. On CI (CI set) it never skips, so a
 * missing editor fails the run instead of passing it unseen.
 */
export function editorsUnavailable(requirements: [what: string, present: boolean][]): string | false {
  const missing = requirements.filter(([, present]) => !present).map(([what]) => what);
  if (!missing.length) return false;
  if (process.env.CI) {
    console.error(`\n!!! editor tests on CI but missing: ${missing.join(', ')} — they will fail (run scripts/install-editors.sh)\n`);
    return false;
  }
  const reason = `missing ${missing.join(', ')}: run scripts/install-editors.sh (CI never skips these)`;
  console.error(`\n${'!'.repeat(80)}\n!!! SKIPPING editor tests: ${reason}\n${'!'.repeat(80)}\n`);
  return reason;
}
