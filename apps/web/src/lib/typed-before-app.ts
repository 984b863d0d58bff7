// What a patient typed into a page painted from HTML before the app took it over (ADR 025).
// React keeps the browser's value in a controlled field when it hydrates, but its state holds
// what the page was rendered with, and its next render of the field would put that back; a page
// rendered afresh (another language) replaces the fields. So each field of the app (TextField)
// asks here, as it first appears, whether the patient typed into it before; once the app has
// taken the page over (after the effects of its first render, which may set the fields from a
// draft), that goes to the field's own change handler. No event is faked, and nothing of React's
// inner workings is touched.

import { flushSync } from 'react-dom';

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const textLike = new Set(['text', 'email', 'tel', 'number', 'search', 'url', 'password']);

/** Until the app's first page is on screen: only then can a field hold text typed before it. */
let takingOver = true;
/** What was typed into the fields of HTML the app renders afresh, by the fields' names. */
let typedByName = new Map<string, string>();
/** What goes to the fields' change handlers once the app has taken over. */
const handOvers: (() => void)[] = [];

/** The value the page was rendered with: a field's value attribute, a list's selected option. */
function renderedValue(field: Field): string {
  if (field instanceof HTMLSelectElement) {
    const options = [...field.options];
    return (options.find((option) => option.defaultSelected) ?? options[0])?.value ?? '';
  }
  return field.defaultValue;
}

/**
 * The app is about to render afresh over `root`: keeps what was typed into its text fields and
 * lists, by name, for the fields of the same name in the page the app renders.
 */
export function keepTypedBeforeApp(root: HTMLElement): void {
  const fields = [...root.querySelectorAll<Field>('input, textarea, select')];
  typedByName = new Map(
    fields
      .filter((field) => !(field instanceof HTMLInputElement) || textLike.has(field.type))
      .filter((field) => field.name !== '' && field.value !== renderedValue(field))
      .map((field) => [field.name, field.value]),
  );
}

/**
 * What the patient typed into `field` before the app, as the app first renders it with `value`:
 * a hydrated field still shows it; a field rendered afresh finds it by name. Undefined: nothing.
 */
function typedInto(field: Field, value: string): string | undefined {
  const kept = typedByName.get(field.name);
  if (kept !== undefined) {
    typedByName.delete(field.name);
    return kept === value ? undefined : kept;
  }
  return field.value === value ? undefined : field.value;
}

/**
 * Called by a field as it first appears, rendered with `value`: if the patient typed into it
 * before the app, `handOver` gets that text once the app has taken over (appHasTakenOver).
 */
export function takeTypedBeforeApp(
  field: Field,
  value: string,
  handOver: (typed: string) => void,
): void {
  if (!takingOver) return;
  const typed = typedInto(field, value);
  if (typed !== undefined) handOvers.push(() => handOver(typed));
}

/**
 * The app's first page is on screen and its first effects have run: what was typed before goes
 * to the fields, rendered before this returns (a click held until the app runs comes next, and
 * must find it in the page's state), and from now on a field shows only what the app gives it.
 * Not from inside React's rendering or effects, where it could not render at once.
 */
export function appHasTakenOver(): void {
  takingOver = false;
  typedByName.clear();
  flushSync(() => {
    for (const handOver of handOvers.splice(0)) handOver();
  });
}
