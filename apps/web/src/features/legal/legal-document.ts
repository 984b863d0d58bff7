/** A legal page's text: written once in Hebrew, rendered by one component with proper headings and lists. */
export interface LegalDocument {
  /** Page heading (h1). */
  title: string;
  /** Shown under the title, e.g. 'עודכן לאחרונה: יוני 2025'. */
  updated: string;
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
