// What a patient typed into a page painted from HTML before the app took it over (ADR 025).
// React keeps a controlled field's own value when it hydrates, not what the browser shows, and a
// page rendered afresh (another language) replaces the fields: either way the text would be lost
// on the next render. So it is read just before the app renders, and handed to the app's own
// change handlers just after, as if typed then.

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export interface Typed {
  field: Field;
  value: string;
}

const textLike = new Set(['text', 'email', 'tel', 'number', 'search', 'url', 'password']);

/** The value the page was rendered with: a field's value attribute, a list's selected option. */
function renderedValue(field: Field): string {
  if (field instanceof HTMLSelectElement) {
    const options = [...field.options];
    return (options.find((option) => option.defaultSelected) ?? options[0])?.value ?? '';
  }
  return field.defaultValue;
}

/** The text fields and lists under `root` whose value the patient changed, with that value. */
export function typedBeforeApp(root: HTMLElement): Typed[] {
  const fields = root.querySelectorAll<Field>('input, textarea, select');
  return [...fields]
    .filter((field) => !(field instanceof HTMLInputElement) || textLike.has(field.type))
    .filter((field) => field.value !== renderedValue(field))
    .map((field) => ({ field, value: field.value }));
}

/**
 * Hands each value to the app, as an input (a list: change) event that React's onChange sees: the
 * same element when it was hydrated, else the field of the same name in the page the app rendered.
 */
export function handOnTyped(typed: Typed[], root: HTMLElement): void {
  for (const { field, value } of typed) {
    const target = field.isConnected
      ? field
      : field.name
        ? root.querySelector<Field>(`[name="${CSS.escape(field.name)}"]`)
        : null;
    if (!target) continue;
    if (target instanceof HTMLSelectElement) {
      target.value = value;
      target.dispatchEvent(new Event('change', { bubbles: true }));
      continue;
    }
    // React notices a changed text field by comparing with the value it last set through the
    // element's own setter: set that to what the page was rendered with, then the typed text
    // through the prototype's setter, which React does not watch.
    target.value = renderedValue(target);
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(target), 'value')?.set?.call(
      target,
      value,
    );
    target.dispatchEvent(new Event('input', { bubbles: true }));
  }
}
