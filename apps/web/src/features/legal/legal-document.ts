/** A legal page's text: written once in Hebrew, rendered by one component with proper headings and lists. */
export interface LegalDocument {
  /** Page heading (h1). */
  title: string;
  /** The month of the last change, shown under the title the same way on every page. */
  updated: { year: number; month: number };
  sections: LegalSection[];
}

export interface LegalSection {
  /** Section heading (h2). */
  heading: string;
  blocks: LegalBlock[];
}

export type LegalBlock =
  | { kind: 'p'; text: string }
  | { kind: 'ul'; items: string[] }
  /** A contact line: the label is plain text, the value becomes a mailto:, tel: or https: link. */
  | { kind: 'contact'; label: string; href: string; text: string };

/** The month and year of the last change as `language` names them: 'יוני 2025', 'June 2025'. */
export function formatUpdated({ year, month }: LegalDocument['updated'], language: string): string {
  return new Intl.DateTimeFormat(language, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, month - 1, 1)));
}
