const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** The most days each month has (February's 29th comes every four years, and fires then). */
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether a CronJob schedule matches no date at all, so the CronJob controller never starts a run ("0 0 30 2 *":
 * February the 30th). Only certain answers are "never": Kubernetes parses schedules as robfig/cron does, where a
 * restricted day of the week (no "*" or "?") fires on some day whatever the day of the month says. Anything it
 * cannot read (a descriptor such as @daily, a time zone, a malformed field) is taken to fire.
 */
export function scheduleNeverFires(schedule: string): boolean {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) return false;
  const [, , dayField, monthField, weekdayField] = fields;
  if (!isStar(weekdayField)) return false;
  const days = values(dayField, 1, 31);
  const months = values(monthField, 1, 12, MONTH_NAMES);
  if (!days || !months) return false;
  return !months.some((month) => days.some((day) => day <= DAYS_IN_MONTH[month - 1]));
}

/** robfig/cron's "star" field: every value, which makes the other day field alone decide. */
function isStar(field: string): boolean {
  return /^[*?](\/1)?$/.test(field);
}

/** The values a field lists ("1,15", "10-20/5", "feb"), or undefined when it cannot be read. */
function values(field: string, min: number, max: number, names: string[] = []): number[] | undefined {
  const found: number[] = [];
  const number = (text: string) => {
    const named = names.indexOf(text.toLowerCase());
    if (named >= 0) return named + 1;
    return /^\d+$/.test(text) ? Number(text) : NaN;
  };
  for (const part of field.split(',')) {
    const match = /^([^/-]+)(?:-([^/]+))?(?:\/(\d+))?$/.exec(part);
    if (!match) return undefined;
    const [, low, high, every] = match;
    const star = low === '*' || low === '?';
    const start = star ? min : number(low);
    // "5/10" means from 5 to the end, as in robfig/cron.
    const end = star || (high === undefined && every !== undefined) ? max : high === undefined ? start : number(high);
    const step = every === undefined ? 1 : Number(every);
    if (!(start >= min && end <= max && start <= end && step >= 1)) return undefined;
    for (let v = start; v <= end; v += step) found.push(v);
  }
  return found;
}
