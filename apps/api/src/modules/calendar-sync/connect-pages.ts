import type { LinkProblem } from './calendar-connections.js';
import type { CalendarProviderName } from '../../platform/db/schema.js';
import type { CalendarListEntry } from './consent-oauth.js';

// The caregiver's pages of a connection link: small server-rendered HTML, Hebrew (RTL) first,
// English with `?lang=en`. They stand alone (no app bundle): a caregiver opens the link on a
// phone, once, and the pages must work before and after the provider's consent without the SPA.
// The texts name Google; a Microsoft link's pages say Microsoft and Outlook instead (`branded`).

export type PageLang = 'he' | 'en';

export const langOf = (value: unknown): PageLang => (value === 'en' ? 'en' : 'he');

const escape = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Inline style: no other file to fetch. Dark cyan on white passes AA (docs/accessibility). */
const STYLE = `
body{font-family:system-ui,Arial,sans-serif;margin:0;background:#f5f7f8;color:#1a1a1a;line-height:1.5}
main{max-width:34rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px}
h1{font-size:1.4rem;margin-top:0}
ul{padding-inline-start:1.2rem}
button{font:inherit;font-weight:600;padding:.7rem 1.4rem;border:0;border-radius:6px;background:#00BCD4;color:#000;cursor:pointer}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #004d55;outline-offset:2px}
a{color:#00676f}
fieldset{border:1px solid #ccc;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
label{display:block;padding:.4rem 0}
.muted{color:#555}
.error{background:#fdecea;color:#7a1212;padding:.6rem .8rem;border-radius:6px}
`;

function shell(lang: PageLang, title: string, body: string, other: string | null): string {
  const dir = lang === 'he' ? 'rtl' : 'ltr';
  const switcher =
    other === null
      ? ''
      : `<p><a href="${escape(other)}" lang="${lang === 'he' ? 'en' : 'he'}">${lang === 'he' ? 'English' : 'עברית'}</a></p>`;
  return `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escape(title)}</title><style>${STYLE}</style></head><body><main>${body}${switcher}</main></body></html>`;
}

/** A text of the pages as the link's provider reads: Google's words are the source. */
const branded = (text: string, provider: CalendarProviderName): string =>
  provider === 'google'
    ? text
    : text
        .replaceAll('יומן Google', 'יומן Outlook')
        .replaceAll('Google Calendar', 'Outlook')
        .replaceAll('Google', 'Microsoft');

/** The same address in the other language. */
const otherLang = (path: string, lang: PageLang) => (lang === 'he' ? `${path}?lang=en` : path);
const withLang = (path: string, lang: PageLang) => (lang === 'en' ? `${path}?lang=en` : path);

const T = {
  he: {
    connectTitle: (who: string) => `חיבור היומן של ${who}`,
    connectIntro: (clinic: string) =>
      `${clinic} מבקשת לחבר את יומן Google שלך ל-Marpe, מערכת התורים של המרפאה.`,
    shared: 'מה ישותף:',
    sharedItems: [
      'Marpe תקרא מתי את/ה עסוק/ה ביומן שתבחר/י, כדי שמטופלים לא יקבלו את השעות האלה.',
      'Marpe תרשום ביומן הזה את התורים שנקבעו במרפאה.',
      'Marpe תראה את רשימת היומנים שלך כדי שתבחר/י אחד. היא לא קוראת דואר, אנשי קשר או יומנים אחרים.',
    ],
    revoke: 'אפשר לנתק בכל עת: המרפאה מנתקת, או שמסירים את Marpe בהגדרות חשבון Google.',
    continue: 'המשך ל-Google',
    chooseTitle: 'באיזה יומן להשתמש?',
    chooseIntro: (account: string) => `היומנים של ${account}:`,
    legend: 'יומן',
    readOnly: '(קריאה בלבד: אפשר לראות אותו אבל לא להוסיף לו אירועים)',
    primary: '(ראשי)',
    connect: 'חיבור היומן',
    held: 'היומן הזה כבר מחובר לאיש צוות אחר (במרפאה זו או באחרת). בחר/י יומן אחר, או בקש/י מהמרפאה לנתק אותו קודם.',
    readOnlyRefused: 'אי אפשר לבחור יומן לקריאה בלבד: Marpe לא תוכל לרשום בו את התורים.',
    notListed: 'היומן הזה אינו ברשימה שלך. בחר/י יומן מהרשימה.',
    noneWritable:
      'אין ביומנים שלך יומן שאפשר לרשום בו. צור/י יומן ב-Google Calendar ופתח/י את הקישור שוב.',
    doneTitle: 'היומן חובר',
    done: (calendar: string) =>
      `היומן „${calendar}” מחובר. בתוך דקה Marpe תקרא אותו, והתורים של המרפאה יופיעו בו. אפשר לסגור את הדף.`,
    problems: {
      unknown: ['הקישור אינו תקין', 'בקש/י מהמרפאה קישור חדש.'],
      expired: [
        'תוקף הקישור פג',
        'קישור תקף 24 שעות, וקישור חדש מבטל את הקודם. בקש/י מהמרפאה קישור חדש.',
      ],
      used: ['הקישור כבר שימש', 'היומן חובר בעזרתו. לחיבור מחדש בקש/י מהמרפאה קישור חדש.'],
      state_mismatch: [
        'התשובה מ-Google אינה שייכת לדפדפן הזה',
        'פתח/י שוב את הקישור מהמרפאה באותו דפדפן והמשך/י משם.',
      ],
      denied: ['לא ניתנה הרשאה', 'דבר לא חובר. כדי לנסות שוב, פתח/י את הקישור מהמרפאה שוב.'],
      google_failed: [
        'Google לא השיבה',
        'דבר לא חובר. נסה/י שוב בעוד דקה: פתח/י את הקישור מהמרפאה שוב.',
      ],
      not_configured: ['החיבור אינו זמין בשרת הזה', 'פנה/י למרפאה.'],
    } satisfies Record<LinkProblem, [string, string]>,
  },
  en: {
    connectTitle: (who: string) => `Connect ${who}'s calendar`,
    connectIntro: (clinic: string) =>
      `${clinic} asks to connect your Google Calendar to Marpe, the clinic's booking system.`,
    shared: 'What is shared:',
    sharedItems: [
      'Marpe reads when you are busy in the calendar you choose, so patients are not offered those times.',
      "Marpe writes the clinic's bookings into that calendar.",
      'Marpe sees the list of your calendars so you can choose one. It reads no e-mail, contacts or other calendars.',
    ],
    revoke:
      'You can disconnect at any time: the clinic disconnects, or you remove Marpe in your Google account settings.',
    continue: 'Continue to Google',
    chooseTitle: 'Which calendar should Marpe use?',
    chooseIntro: (account: string) => `The calendars of ${account}:`,
    legend: 'Calendar',
    readOnly: '(read only: you can see it but not add events to it)',
    primary: '(main)',
    connect: 'Connect the calendar',
    held: 'This calendar is already connected to another caregiver (of this clinic or another). Choose another, or ask the clinic to disconnect it first.',
    readOnlyRefused:
      'A read-only calendar cannot be chosen: Marpe could not write the bookings into it.',
    notListed: 'That calendar is not in your list. Choose one from the list.',
    noneWritable:
      'None of your calendars can take events. Create one in Google Calendar and open the link again.',
    doneTitle: 'Calendar connected',
    done: (calendar: string) =>
      `"${calendar}" is connected. Within a minute Marpe reads it and the clinic's bookings appear in it. You can close this page.`,
    problems: {
      unknown: ['This link is not valid', 'Ask the clinic for a new link.'],
      expired: [
        'This link has expired',
        'A link works for 24 hours, and a newer one replaces it. Ask the clinic for a new link.',
      ],
      used: [
        'This link was already used',
        'The calendar was connected with it. To connect again, ask the clinic for a new link.',
      ],
      state_mismatch: [
        "Google's answer does not belong to this browser",
        "Open the clinic's link again in this browser and go on from there.",
      ],
      denied: [
        'Access was not allowed',
        "Nothing was connected. To try again, open the clinic's link again.",
      ],
      google_failed: [
        'Google did not answer',
        "Nothing was connected. Try again in a minute: open the clinic's link again.",
      ],
      not_configured: ['Connecting is not available on this server', 'Please contact the clinic.'],
    } satisfies Record<LinkProblem, [string, string]>,
  },
};

/**
 * The link's first page. Where the server has both providers, a button for each (the link's
 * first): the caregiver knows where their diary is, the clinic may not.
 */
export function connectPage(
  lang: PageLang,
  view: {
    token: string;
    clinicName: string;
    caregiverName: string;
    provider: CalendarProviderName;
    providers: readonly CalendarProviderName[];
  },
): string {
  const t = T[lang];
  const path = `/calendar/connect/${view.token}`;
  const choices = [view.provider, ...view.providers.filter((p) => p !== view.provider)];
  const buttons = choices
    .map(
      (p) =>
        `<button type="submit" name="provider" value="${p}">${escape(branded(t.continue, p))}</button>`,
    )
    .join(' ');
  const body = `<h1>${escape(t.connectTitle(view.caregiverName))}</h1>
<p>${escape(branded(t.connectIntro(view.clinicName), view.provider))}</p>
<h2>${escape(t.shared)}</h2>
<ul>${t.sharedItems.map((item) => `<li>${escape(item)}</li>`).join('')}</ul>
<p class="muted">${escape(branded(t.revoke, view.provider))}</p>
<form method="post" action="${escape(withLang(path, lang))}">${buttons}</form>`;
  return shell(lang, t.connectTitle(view.caregiverName), body, otherLang(path, lang));
}

export type ChoiceError = 'held' | 'read_only' | 'not_listed' | null;

export function choosePage(
  lang: PageLang,
  view: {
    token: string;
    accountEmail: string;
    calendars: CalendarListEntry[];
    error: ChoiceError;
    provider: CalendarProviderName;
  },
): string {
  const t = T[lang];
  const path = `/calendar/connect/${view.token}/calendar`;
  const writable = view.calendars.filter((c) => c.canWrite);
  const chosen = (writable.find((c) => c.primary) ?? writable[0])?.id;
  const errorText =
    view.error === 'held'
      ? t.held
      : view.error === 'read_only'
        ? t.readOnlyRefused
        : view.error === 'not_listed'
          ? t.notListed
          : writable.length === 0
            ? branded(t.noneWritable, view.provider)
            : null;
  const options = view.calendars
    .map((c, i) => {
      const canChoose = c.canWrite;
      const note = canChoose ? (c.primary ? ` ${t.primary}` : '') : ` ${t.readOnly}`;
      return `<label for="c${i}"><input type="radio" id="c${i}" name="calendar_id" value="${escape(c.id)}"${canChoose ? '' : ' disabled'}${c.id === chosen ? ' checked' : ''}> ${escape(c.summary)}<span class="muted">${escape(note)}</span></label>`;
    })
    .join('');
  const body = `<h1>${escape(t.chooseTitle)}</h1>
${errorText ? `<p class="error" role="alert">${escape(errorText)}</p>` : ''}
<p>${escape(t.chooseIntro(view.accountEmail))}</p>
<form method="post" action="${escape(withLang(path, lang))}">
<fieldset><legend>${escape(t.legend)}</legend>${options}</fieldset>
<button type="submit"${writable.length === 0 ? ' disabled' : ''}>${escape(t.connect)}</button></form>`;
  return shell(lang, t.chooseTitle, body, otherLang(path, lang));
}

export function donePage(lang: PageLang, calendarName: string): string {
  const t = T[lang];
  return shell(
    lang,
    t.doneTitle,
    `<h1>${escape(t.doneTitle)}</h1><p>${escape(t.done(calendarName))}</p>`,
    null,
  );
}

export function problemPage(
  lang: PageLang,
  problem: LinkProblem,
  provider: CalendarProviderName = 'google',
): string {
  const [title, text] = T[lang].problems[problem].map((line) => branded(line, provider));
  return shell(
    lang,
    title ?? '',
    `<h1>${escape(title ?? '')}</h1><p>${escape(text ?? '')}</p>`,
    null,
  );
}

/** The HTTP status of each problem page. */
export const problemStatus: Record<LinkProblem, number> = {
  unknown: 404,
  expired: 410,
  used: 410,
  state_mismatch: 400,
  denied: 200,
  google_failed: 502,
  not_configured: 503,
};
