import {
  calendarDateOf,
  isVisible,
  normaliseDate,
  parseDayMonthYear,
  safeHtmlParagraphs,
  sanitizeHtmlTree,
  type CalendarDate,
  type HtmlNode,
} from '@marpe/shared/rules';
import type { FormField, FormSchema, InputData } from '@marpe/shared';

/** One thing the answers view shows, in the form's order. */
export type AnswerBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'text'; paragraphs: string[] }
  | { kind: 'answer'; label: string; value: AnswerValue }
  | { kind: 'signature'; label: string; dataUrl: string | null };

/** A value field's answer, ready to be said in the reader's language. */
export type AnswerValue =
  | { kind: 'yes' | 'no' | 'empty' }
  | { kind: 'text'; text: string }
  | { kind: 'date'; date: CalendarDate };

/** A step with what of it shows: its title, then its blocks. */
export interface AnswerStep {
  title: string;
  blocks: AnswerBlock[];
}

/** The html field's text as the form page shows it (the same allow-list as the PDF), in paragraphs. */
export type HtmlParagraphs = (html: string) => string[];

function fromDom(node: Node): HtmlNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  return {
    tag: element.localName,
    href: element.getAttribute('href'),
    children: [...element.childNodes].map(fromDom),
  };
}

/** DOMParser runs nothing; only the allow-list's text is kept, never markup. */
export const browserHtmlParagraphs: HtmlParagraphs = (html) =>
  safeHtmlParagraphs(
    sanitizeHtmlTree(
      [...new DOMParser().parseFromString(html, 'text/html').body.childNodes].map(fromDom),
    ),
  );

const readsDates = (field: FormField) =>
  field.validations.includes('dateFormat') || field.validations.includes('birthDateFormat');

/** A value field's answer: a choice by its label, a date as a date, a checkbox yes or no. */
export function answerValue(
  field: FormField,
  value: string | boolean | undefined,
  today: CalendarDate,
): AnswerValue {
  if (field.type === 'checkbox') return { kind: value === true ? 'yes' : 'no' };
  if (typeof value !== 'string' || value.trim() === '') return { kind: 'empty' };
  if (field.type === 'select') {
    const option = field.options?.find((o) => o.value === value);
    return { kind: 'text', text: option?.label ?? value };
  }
  if (readsDates(field)) {
    const date = parseDayMonthYear(normaliseDate(value.trim(), today));
    if (date) return { kind: 'date', date };
  }
  return { kind: 'text', text: value };
}

/**
 * What the patient saw and answered, step by step, as the printout shows it: display fields
 * (titles, paragraphs, html text) and value fields that were shown to them (their conditions on
 * the day they submitted), a name shared by several fields once; steps with nothing shown left out.
 * Unlike the printout, an unanswered field is listed (as such), so the desk sees what was skipped.
 */
export function answerSteps(
  schema: FormSchema,
  values: InputData,
  submittedAt: string,
  timeZone: string,
  htmlParagraphs: HtmlParagraphs = browserHtmlParagraphs,
): AnswerStep[] {
  const today = calendarDateOf(new Date(submittedAt), timeZone);
  const shown = new Set<string>();
  const steps: AnswerStep[] = [];
  for (const step of schema) {
    const blocks: AnswerBlock[] = [];
    for (const field of step.fields) {
      if (!isVisible(field, values, today)) continue;
      const title = field.title.trim();
      if (field.type === 'title') {
        if (title) blocks.push({ kind: 'heading', text: title });
        continue;
      }
      if (field.type === 'paragraph') {
        const paragraphs = field.title
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean);
        if (paragraphs.length > 0) blocks.push({ kind: 'text', paragraphs });
        continue;
      }
      if (field.type === 'html') {
        const paragraphs = htmlParagraphs(field.title);
        if (paragraphs.length > 0) blocks.push({ kind: 'text', paragraphs });
        continue;
      }
      if (shown.has(field.name)) continue;
      shown.add(field.name);
      const label = title || field.name;
      const value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
      if (field.type === 'signature') {
        blocks.push({
          kind: 'signature',
          label,
          dataUrl: typeof value === 'string' && value.startsWith('data:image/') ? value : null,
        });
        continue;
      }
      blocks.push({ kind: 'answer', label, value: answerValue(field, value, today) });
    }
    if (blocks.length > 0) steps.push({ title: step.title.trim(), blocks });
  }
  return steps;
}
