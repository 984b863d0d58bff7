// What the browser needs to run Meta's embedded sign-up on /whatsapp-signup
// (docs/product/connections.md#whatsapp-sign-up). Zod-free,
// so that the page can import it without bringing zod into the browser; connections.ts holds the
// schemas of the connections.

/** The Graph API and JS SDK version of Meta's embedded sign-up. */
export const META_GRAPH_VERSION = 'v23.0';

/** The only origins whose `WA_EMBEDDED_SIGNUP` messages the connection page accepts. */
export const META_MESSAGE_ORIGINS = [
  'https://www.facebook.com',
  'https://web.facebook.com',
] as const;

/**
 * `extras` of `FB.login` for the embedded sign-up: what Meta's dialog fills in for an
 * Israeli health business — country code 972, the Jerusalem time zone, shekels, health category.
 */
export const WHATSAPP_SIGNUP_EXTRAS = {
  setup: {
    business: {
      phone: { code: 972 },
      address: { country: 'IL' },
      timezone: 'Asia/Jerusalem',
      currency: 'ILS',
    },
    phone: { category: 'HEALTH' },
  },
  featureType: '',
  sessionInfoVersion: '3',
} as const;
