import type { FormField } from '@marpe/shared';

/**
 * Date fields show and take dates as `DD.MM.YYYY`, the app's one visible date format
 * (docs/formats.md). A clinic's form may carry an older `##/##/####` mask and a `DD/MM/YYYY`
 * placeholder; what the patient types is checked the same either way (dots, slashes or dashes:
 * docs/forms.md "Date normalisation").
 */
export function isDateField(field: FormField): boolean {
  return (
    field.type === 'text' &&
    field.validations.some((kind) => kind === 'dateFormat' || kind === 'birthDateFormat')
  );
}

/** The clinic's date mask with dots for its separators: `##/##/####` → `##.##.####`. */
export function dottedDateMask(mask: string): string {
  return mask.replace(/[/\-.]/g, '.');
}

/** A placeholder that only spells out a date format (`DD/MM/YYYY`, `dd-mm-yy`), in Latin letters. */
const formatPattern = /^\s*[dmy]{1,4}\s*[/.-]\s*[dmy]{1,4}\s*[/.-]\s*[dmy]{1,4}\s*$/i;

/**
 * What an empty date field shows: the format in the patient's language (`hint`) in place of the
 * clinic's when that only spells out a format (or there is none); any other wording of theirs
 * (an example date, say) is kept.
 */
export function datePlaceholder(placeholder: string | undefined, hint: string): string {
  return !placeholder || formatPattern.test(placeholder) ? hint : placeholder;
}
