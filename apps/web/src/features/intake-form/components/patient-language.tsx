import { createContext, useContext, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  directionOf,
  prerenderLanguage,
  toLanguage,
  type Direction,
  type Language,
} from '../../../lib/languages';

/**
 * The form's own texts (its questions, titles and button labels) are in the clinic's language and
 * laid out in the form's direction; the texts Marpe writes around them (step counter, messages,
 * buttons, the signature pad's controls) are in the patient's language. When the two directions
 * differ, each of our texts carries its own language and direction, so that an English sentence
 * inside a right-to-left form keeps its full stop at its end and a screen reader reads it in
 * English.
 */
export interface PatientLanguage {
  language: Language;
  /** Whether the patient's language reads in the form's direction. */
  matchesForm: boolean;
  /**
   * Whether the buttons keep the clinic's labels (in its form's language). Hebrew is every page's
   * language until the patient picks another, so on a Hebrew page they stay: a patient sent a
   * left-to-right form reads its buttons in that form's language.
   */
  keepsClinicLabels: boolean;
  /** Attributes for an element holding one of our texts: none when the form reads the same way. */
  attributes: { lang?: Language; dir?: Direction };
}

/**
 * `formDirection`: the form's, from its first step. A right-to-left form is taken as Hebrew, the
 * clinics' language (docs/forms.md: `is_ltr`); a left-to-right one has no language we can name.
 */
export function patientLanguageOf(language: string, formDirection: Direction): PatientLanguage {
  const patient = toLanguage(language);
  const direction = directionOf(patient);
  const matchesForm = direction === formDirection;
  return {
    language: patient,
    matchesForm,
    keepsClinicLabels: matchesForm || patient === prerenderLanguage,
    attributes: matchesForm ? {} : { lang: patient, dir: direction },
  };
}

/** The language the form's own texts are read in, when it is not the page's (see above). */
export function formLanguageAttributes(
  language: string,
  formDirection: Direction,
): { lang?: Language } {
  return formDirection === 'rtl' && directionOf(toLanguage(language)) !== 'rtl'
    ? { lang: 'he' }
    : {};
}

const PatientLanguageContext = createContext<PatientLanguage | null>(null);

export function PatientLanguageProvider({
  formDirection,
  children,
}: {
  formDirection: Direction;
  children: ReactNode;
}) {
  const { i18n } = useTranslation();
  return (
    <PatientLanguageContext.Provider value={patientLanguageOf(i18n.language, formDirection)}>
      {children}
    </PatientLanguageContext.Provider>
  );
}

/** The patient's language inside the form (outside one: the page's, matching it). */
export function usePatientLanguage(): PatientLanguage {
  const { i18n } = useTranslation();
  return (
    useContext(PatientLanguageContext) ??
    patientLanguageOf(i18n.language, directionOf(toLanguage(i18n.language)))
  );
}

/**
 * One of our texts inside the form: an inline run in the patient's language and direction, so it
 * stays on the form's side of the page while reading in its own order.
 */
export function PatientText({ children }: { children: ReactNode }) {
  const { attributes } = usePatientLanguage();
  if (!attributes.lang) return <>{children}</>;
  return <span {...attributes}>{children}</span>;
}
