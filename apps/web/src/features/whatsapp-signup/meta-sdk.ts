import { META_GRAPH_VERSION, WHATSAPP_SIGNUP_EXTRAS } from '@marpe/shared/rules';

/** The part of Meta's JS SDK (`window.FB`) the connection page uses. */
export interface MetaSdk {
  init(options: {
    appId: string;
    autoLogAppEvents: boolean;
    xfbml: boolean;
    version: string;
  }): void;
  login(
    callback: (response: { authResponse?: { code?: string } | null }) => void,
    options: Record<string, unknown>,
  ): void;
}

declare global {
  interface Window {
    FB?: MetaSdk;
  }
}

let loading: Promise<MetaSdk> | null = null;

/**
 * Adds Meta's SDK to the page once (a `<script src>`: the page's CSP allows its origin) and
 * initialises it with the app; later calls share the first load. A failed load may be retried.
 */
export function loadMetaSdk(options: { sdkUrl: string; appId: string }): Promise<MetaSdk> {
  loading ??= new Promise<MetaSdk>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = options.sdkUrl;
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.onload = () => {
      const sdk = window.FB;
      if (!sdk) {
        reject(new Error('Meta SDK loaded without window.FB'));
        return;
      }
      sdk.init({
        appId: options.appId,
        autoLogAppEvents: true,
        xfbml: true,
        version: META_GRAPH_VERSION,
      });
      resolve(sdk);
    };
    script.onerror = () => reject(new Error(`Meta SDK could not be loaded from ${options.sdkUrl}`));
    document.body.append(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/**
 * Opens Meta's embedded sign-up: the answer is a code for the server, not a token
 * (docs/product/connections.md#whatsapp-sign-up).
 */
export function startEmbeddedSignup(
  sdk: MetaSdk,
  configId: string,
  onCode: (code: string | null) => void,
): void {
  sdk.login(
    (response) => {
      const code = response.authResponse?.code;
      onCode(typeof code === 'string' && code !== '' ? code : null);
    },
    {
      config_id: configId,
      response_type: 'code',
      override_default_response_type: true,
      extras: WHATSAPP_SIGNUP_EXTRAS,
    },
  );
}
