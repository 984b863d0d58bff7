// The web's half of each patient page's one declaration (docs/pages.md, ADR 046): its component
// and its title. The other half (address, data, how it starts, where it leads) is the shared
// table `patientPages`, which the API reads too. The landing page is not here: it is in the
// entry chunk (router.tsx).
import type { PatientPageId } from '@marpe/shared/rules';
import type { ParseKeys } from 'i18next';
import type { ComponentType } from 'react';

export interface WebPage {
  /** The document title until the page sets its own (usePageTitle). */
  titleKey: ParseKeys;
  /**
   * The page's module, from apps/web: Vite's manifest names its chunk by it, for the page's
   * modulepreload links. The build fails if it is not the module `load` imports.
   */
  module: string;
  /** Loads the page's code on first visit: each page is its own chunk, or its flow's. */
  load: () => Promise<ComponentType>;
}

export type LazyPageId = Exclude<PatientPageId, 'home-page'>;

export const webPages: Record<LazyPageId, WebPage> = {
  'privacy-page': {
    titleKey: 'legal.privacy',
    module: 'src/features/legal/privacy-page.tsx',
    load: async () => (await import('../features/legal/privacy-page')).PrivacyPage,
  },
  'terms-page': {
    titleKey: 'legal.terms',
    module: 'src/features/legal/terms-page.tsx',
    load: async () => (await import('../features/legal/terms-page')).TermsPage,
  },
  'accessibility-page': {
    titleKey: 'legal.accessibility',
    module: 'src/features/legal/accessibility-page.tsx',
    load: async () => (await import('../features/legal/accessibility-page')).AccessibilityPage,
  },
  'clinic-page': {
    // The title becomes the clinic's name once it has loaded (see usePageTitle).
    titleKey: 'app.title',
    module: 'src/features/clinic/clinic-page.tsx',
    load: async () => (await import('../features/clinic/clinic-page')).ClinicPage,
  },
  'login-page': {
    titleKey: 'patientAuth.title',
    module: 'src/features/patient-auth/login-page.tsx',
    load: async () => (await import('../features/patient-auth/login-page')).LoginPage,
  },
  'booking-page': {
    titleKey: 'booking.title',
    module: 'src/app/clinic-flow-routes.tsx',
    load: async () => (await import('./clinic-flow-routes')).BookingRoute,
  },
  'booking-confirmation-page': {
    titleKey: 'booking.confirmation.title',
    module: 'src/features/booking/confirmation-page.tsx',
    load: async () => (await import('../features/booking/confirmation-page')).ConfirmationPage,
  },
  'appointments-page': {
    titleKey: 'appointments.title',
    module: 'src/app/clinic-flow-routes.tsx',
    load: async () => (await import('./clinic-flow-routes')).AppointmentsRoute,
  },
  'intake-form-page': {
    titleKey: 'intakeForm.title',
    module: 'src/features/intake-form/intake-form-page.tsx',
    load: async () => (await import('../features/intake-form/intake-form-page')).IntakeFormPage,
  },
  'payment-request-page': {
    titleKey: 'payment.title',
    module: 'src/features/payment/payment-request-page.tsx',
    load: async () => (await import('../features/payment/payment-request-page')).PaymentRequestPage,
  },
  'payment-result-page': {
    titleKey: 'payment.result.title',
    module: 'src/features/payment/payment-result-page.tsx',
    load: async () => (await import('../features/payment/payment-result-page')).PaymentResultPage,
  },
  'completed-page': {
    titleKey: 'status.completed.heading',
    module: 'src/features/status-pages/completed-page.tsx',
    load: async () => (await import('../features/status-pages/completed-page')).CompletedPage,
  },
  'expired-page': {
    titleKey: 'status.expired.heading',
    module: 'src/features/status-pages/expired-page.tsx',
    load: async () => (await import('../features/status-pages/expired-page')).ExpiredPage,
  },
  'shaam-auth-page': {
    titleKey: 'shaamAuth.title',
    module: 'src/features/shaam-auth/shaam-auth-page.tsx',
    load: async () => (await import('../features/shaam-auth/shaam-auth-page')).ShaamAuthPage,
  },
  'whatsapp-signup-page': {
    titleKey: 'whatsappSignup.title',
    module: 'src/features/whatsapp-signup/whatsapp-signup-page.tsx',
    load: async () =>
      (await import('../features/whatsapp-signup/whatsapp-signup-page')).WhatsAppSignupPage,
  },
};

export const lazyPageIds = Object.keys(webPages) as LazyPageId[];

export function isLazyPageId(id: string | undefined): id is LazyPageId {
  return id !== undefined && Object.hasOwn(webPages, id);
}
