import { readFileSync } from 'node:fs';
import path from 'node:path';
import { create, type Font } from 'fontkit';
import PDFDocument from 'pdfkit';
import { isVisible, type FormField, type FormSchema, type InputData } from '@marpe/shared';
import { formatZonedLocal, zonedDate } from '../../platform/zoned-time.js';
import type { FilledForm } from './read-form-requests.js';
import { signatureImage } from '../../platform/signature-image.js';
import { fontsDir } from '../../paths.js';
import {
  directionOf,
  htmlToParagraphs,
  layoutParagraph,
  type Direction,
} from './forms-pdf-text.js';

// The printout of a submitted intake form: the clinic and form names, the submission time in
// the clinic's zone, then each step's visible content in order (headings and texts as sections,
// answered fields as label and answer, signatures as images), right to left unless the form is
// left to right. Text is laid out line by line in visual order (forms-pdf-text.ts) with Heebo,
// the web app's font (SIL Open Font License 1.1, apps/api/assets/fonts).

interface Fonts {
  regular: Font;
  bold: Font;
  /** Regular as bytes, for text inside SVG signatures. */
  regularBytes: Uint8Array;
}

let fontFiles: { regular: Buffer; bold: Buffer } | undefined;

/** A font that lays text out left to right whatever its script: the text is already visual. */
function visualOrderFont(bytes: Buffer): Font {
  const font = create(bytes);
  if (!('layout' in font)) throw new Error('expected a single font, not a collection');
  const layout = font.layout.bind(font);
  font.layout = (text, features, script, language) =>
    layout(text, features, script, language, 'ltr');
  return font;
}

/**
 * The files are read once; the fontkit fonts are made anew for each document. fontkit keeps
 * state on a font object (its glyph cache) that pdfkit's embedding touches: with fonts shared
 * between documents, a PDF made after another one had a different text layer (pdf.js read a
 * Hebrew sentence back split and out of order) though it looked the same.
 */
function loadFonts(): Fonts {
  if (!fontFiles) {
    const file = (name: string) => readFileSync(path.join(fontsDir, name));
    fontFiles = { regular: file('Heebo-Regular.ttf'), bold: file('Heebo-Bold.ttf') };
  }
  return {
    regular: visualOrderFont(fontFiles.regular),
    bold: visualOrderFont(fontFiles.bold),
    regularBytes: new Uint8Array(fontFiles.regular),
  };
}

const words = {
  rtl: {
    submitted: 'מועד ההגשה',
    yes: 'כן',
    no: 'לא',
    unreadableSignature: 'לא ניתן להציג את החתימה',
    page: (page: number, pages: number, id: number) => `טופס ${id} · עמוד ${page} מתוך ${pages}`,
  },
  ltr: {
    submitted: 'Submitted',
    yes: 'Yes',
    no: 'No',
    unreadableSignature: 'The signature cannot be shown',
    page: (page: number, pages: number, id: number) => `Form ${id} · page ${page} of ${pages}`,
  },
} satisfies Record<Direction, unknown>;

type PrintedBlock =
  | { kind: 'step' | 'heading'; text: string }
  | { kind: 'text'; paragraphs: string[] }
  | { kind: 'answer'; label: string; text: string }
  | { kind: 'signature'; label: string; dataUrl: string };

/** A value field's answer: a checkbox always (yes or no), others when answered. */
function answerBlock(
  field: FormField,
  label: string,
  value: string | boolean | undefined,
  direction: Direction,
): PrintedBlock | null {
  if (field.type === 'checkbox') {
    return {
      kind: 'answer',
      label,
      text: value === true ? words[direction].yes : words[direction].no,
    };
  }
  if (typeof value !== 'string' || value.trim() === '') return null;
  if (field.type === 'signature') return { kind: 'signature', label, dataUrl: value };
  const option =
    field.type === 'select' ? field.options?.find((o) => o.value === value) : undefined;
  return { kind: 'answer', label, text: option?.label ?? value };
}

/**
 * What the printout shows, in order: per step (its title first, when anything of it shows), the
 * visible display fields and answered value fields; a checkbox always answers yes or no, a select
 * shows its option's label. A name shared by several visible fields is printed once.
 */
function printedBlocks(
  schema: FormSchema,
  values: InputData,
  today: { year: number; month: number; day: number },
  direction: Direction,
): PrintedBlock[] {
  const blocks: PrintedBlock[] = [];
  const printed = new Set<string>();
  for (const step of schema) {
    const stepBlocks: PrintedBlock[] = [];
    for (const field of step.fields) {
      if (!isVisible(field, values, today)) continue;
      const label = field.title.trim() || field.name;
      const value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
      switch (field.type) {
        case 'title':
          if (field.title.trim()) stepBlocks.push({ kind: 'heading', text: field.title.trim() });
          continue;
        case 'paragraph': {
          const paragraphs = field.title.split('\n').map((line) => line.trim());
          if (paragraphs.some(Boolean)) {
            stepBlocks.push({ kind: 'text', paragraphs: paragraphs.filter(Boolean) });
          }
          continue;
        }
        case 'html': {
          const paragraphs = htmlToParagraphs(field.title);
          if (paragraphs.length > 0) stepBlocks.push({ kind: 'text', paragraphs });
          continue;
        }
      }
      const block = printed.has(field.name) ? null : answerBlock(field, label, value, direction);
      if (block) {
        stepBlocks.push(block);
        printed.add(field.name);
      }
    }
    if (stepBlocks.length === 0) continue;
    if (step.title.trim()) blocks.push({ kind: 'step', text: step.title.trim() });
    blocks.push(...stepBlocks);
  }
  return blocks;
}

const PAGE = { size: 'A4', margin: 56 } as const;
const COLORS = { text: '#212121', muted: '#616161', accent: '#00838F', rule: '#B2EBF2' };
/** The box a signature is fitted into, in points. */
const SIGNATURE_BOX = { width: 220, height: 90 };

/** pdfkit reads an image's size with `openImage`, missing from its types. */
interface ImageOpener {
  openImage(src: Buffer): { width: number; height: number };
}

interface TextStyle {
  font: 'regular' | 'bold';
  size: number;
  color: string;
}

const styles = {
  clinic: { font: 'bold', size: 18, color: COLORS.text },
  form: { font: 'bold', size: 14, color: COLORS.text },
  meta: { font: 'regular', size: 10, color: COLORS.muted },
  step: { font: 'bold', size: 13, color: COLORS.accent },
  heading: { font: 'bold', size: 12, color: COLORS.text },
  text: { font: 'regular', size: 10.5, color: COLORS.text },
  label: { font: 'regular', size: 9.5, color: COLORS.muted },
  answer: { font: 'regular', size: 11.5, color: COLORS.text },
  footer: { font: 'regular', size: 8.5, color: COLORS.muted },
} satisfies Record<string, TextStyle>;

/** `DD/MM/YYYY HH:mm` on the clinic's clocks. */
function formatSubmissionTime(at: Date, timezone: string): string {
  const local = formatZonedLocal(at.getTime(), timezone);
  return `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)} ${local.slice(11, 16)}`;
}

/** The PDF of a submitted form (see the top of this file). */
export async function renderFormPdf(form: FilledForm, generatedAt: Date): Promise<Buffer> {
  const { regular, bold, regularBytes } = loadFonts();
  const direction: Direction = form.schema[0]?.is_ltr ? 'ltr' : 'rtl';
  const [year = 0, month = 0, day = 0] = zonedDate(form.submittedAt.getTime(), form.timezone)
    .split('-')
    .map(Number);
  const blocks = printedBlocks(form.schema, form.values, { year, month, day }, direction);
  const images = new Map<string, Buffer | null>();
  for (const block of blocks) {
    if (block.kind === 'signature' && !images.has(block.dataUrl)) {
      images.set(block.dataUrl, await signatureImage(block.dataUrl, regularBytes));
    }
  }

  const title = form.templateName ?? '';
  const doc: PDFKit.PDFDocument & ImageOpener = new PDFDocument({
    size: PAGE.size,
    margin: PAGE.margin,
    bufferPages: true,
    lang: direction === 'rtl' ? 'he' : 'en',
    displayTitle: true,
    info: {
      Title: title ? `${title} · ${form.clinicName}` : form.clinicName,
      Author: form.clinicName,
      CreationDate: generatedAt,
    },
  }) as PDFKit.PDFDocument & ImageOpener;
  // pdfkit ≥ 0.20 takes fontkit fonts (its older types know only files and bytes).
  doc.registerFont('regular', regular as unknown as Uint8Array);
  doc.registerFont('bold', bold as unknown as Uint8Array);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const left = PAGE.margin;
  const right = doc.page.width - PAGE.margin;
  const width = right - left;
  const top = PAGE.margin;
  const bottom = doc.page.height - PAGE.margin;
  let y = top;

  const use = (style: TextStyle) =>
    doc.font(style.font).fontSize(style.size).fillColor(style.color);
  const lineHeight = (style: TextStyle) => style.size * 1.5;
  const room = (height: number) => {
    if (y + height > bottom) {
      doc.addPage();
      y = top;
    }
  };
  const drawLine = (line: string, lineY: number) => {
    const x = direction === 'rtl' ? right - doc.widthOfString(line) : left;
    doc.text(line, x, lineY, { lineBreak: false });
  };
  /** Paragraphs in `style`; a paragraph's own direction orders it, the form's aligns it. */
  const write = (paragraphs: string[], style: TextStyle, gapAfter: number, auto = false) => {
    use(style);
    for (const paragraph of paragraphs) {
      const own = auto ? directionOf(paragraph, direction) : direction;
      for (const line of layoutParagraph(paragraph, own, width, (s) => doc.widthOfString(s))) {
        room(lineHeight(style));
        drawLine(line, y);
        y += lineHeight(style);
      }
    }
    y += gapAfter;
  };
  const rule = (color: string) => {
    room(8);
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.75).strokeColor(color).stroke();
    y += 10;
  };

  write([form.clinicName], styles.clinic, 2);
  if (title) write([title], styles.form, 2);
  write(
    [`${words[direction].submitted}: ${formatSubmissionTime(form.submittedAt, form.timezone)}`],
    styles.meta,
    6,
  );
  rule(COLORS.accent);

  // A heading stays with at least one line of what follows it.
  const firstLines = lineHeight(styles.label) + lineHeight(styles.answer);
  for (const block of blocks) {
    switch (block.kind) {
      case 'step':
        room(6 + lineHeight(styles.step) + 12 + firstLines);
        y += 6;
        write([block.text], styles.step, 2);
        rule(COLORS.rule);
        break;
      case 'heading':
        room(lineHeight(styles.heading) + 4 + firstLines);
        write([block.text], styles.heading, 4);
        break;
      case 'text':
        write(block.paragraphs, styles.text, 6);
        break;
      case 'answer':
        room(firstLines);
        write([block.label], styles.label, 0);
        write(block.text.split('\n'), styles.answer, 8, true);
        break;
      case 'signature': {
        room(lineHeight(styles.label) + SIGNATURE_BOX.height + 12);
        write([block.label], styles.label, 2);
        const drawn = drawSignature(images.get(block.dataUrl) ?? null);
        if (!drawn) write([words[direction].unreadableSignature], styles.answer, 8);
        break;
      }
    }
  }

  function drawSignature(bytes: Buffer | null): boolean {
    if (!bytes) return false;
    let image: { width: number; height: number };
    try {
      image = doc.openImage(bytes);
    } catch {
      return false;
    }
    const scale = Math.min(SIGNATURE_BOX.width / image.width, SIGNATURE_BOX.height / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    const x = direction === 'rtl' ? right - w : left;
    doc.image(bytes, x, y, { width: w, height: h });
    y += h + 2;
    const lineStart = direction === 'rtl' ? right - SIGNATURE_BOX.width : left;
    doc
      .moveTo(lineStart, y)
      .lineTo(lineStart + SIGNATURE_BOX.width, y)
      .lineWidth(0.5)
      .strokeColor(COLORS.muted)
      .stroke();
    y += 12;
    return true;
  }

  const { start, count } = doc.bufferedPageRange();
  for (let page = start; page < start + count; page++) {
    doc.switchToPage(page);
    use(styles.footer);
    const footer = words[direction].page(page - start + 1, count, form.requestId);
    for (const line of layoutParagraph(footer, direction, width, (s) => doc.widthOfString(s))) {
      drawLine(line, bottom + 18);
    }
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
