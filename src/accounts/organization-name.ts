/**
 * What makes two organization names the same name: Unicode canonical composition (NFC: `é` as
 * one character or as `e` and a combining accent) and case. Stored beside the name as it was
 * given (`organizations.name_key`, unique), so every lookup and the uniqueness check compare
 * alike on both account backends.
 */
export function organizationNameKey(name: string): string {
  return name.trim().normalize('NFC').toLowerCase();
}
