/**
 * Titles that precede a caregiver's name: ד"ר (with a gershayim or a quote), דר', פרופ',
 * פרופסור, Dr., Prof. and the like. An avatar without a photo shows the name's first letter,
 * not the title's ("ד" from ד"ר).
 */
const title =
  /^(?:ד["״]ר|דר['׳]|פרופ['׳]|פרופסור|dr\.?|prof\.?|professor|mr\.?|mrs\.?|ms\.?)(?=\s)/iu;

/** The first letter of a person's name, past any titles; '' when there is none. */
export function nameInitial(name: string): string {
  let rest = name.trim();
  for (let match = title.exec(rest); match; match = title.exec(rest)) {
    rest = rest.slice(match[0].length).trimStart();
  }
  const [first = ''] = rest;
  return first.toLocaleUpperCase();
}
