// Settings that hold definitions keyed by id (teams, agents) are usually unset or `{}`: their readers
// skip their schemas then, so a window without any does not evaluate them when the runtime loads.

/** An unset setting, or an object with no key: no definition in it. */
export function definesNothing(setting: unknown): boolean {
  return setting === undefined || setting === null || (typeof setting === 'object' && !Array.isArray(setting) && Object.keys(setting).length === 0);
}
