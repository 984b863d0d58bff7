import { useEffect, useRef } from 'react';

/** The WebOTP parts of the Credential Management API, which TypeScript's DOM types lack. */
interface OtpCredential extends Credential {
  readonly code: string;
}

interface OtpCredentialRequestOptions extends CredentialRequestOptions {
  otp: { transport: 'sms'[] };
}

/**
 * Offers the code of an incoming SMS (its last line `@host #code`) where the browser supports
 * WebOTP; `key` starts a new request for each code sent. Aborted on unmount and on a new key.
 */
export function useWebOtp(key: string | null, onCode: (code: string) => void): void {
  const latest = useRef(onCode);
  useEffect(() => {
    latest.current = onCode;
  });

  useEffect(() => {
    if (key === null || !('OTPCredential' in window) || !navigator.credentials) return;
    const controller = new AbortController();
    const options: OtpCredentialRequestOptions = {
      otp: { transport: ['sms'] },
      signal: controller.signal,
    };
    navigator.credentials
      .get(options)
      .then((credential) => {
        const code = (credential as OtpCredential | null)?.code;
        if (code && !controller.signal.aborted) latest.current(code);
      })
      .catch(() => {
        // Aborted, refused by the patient or unsupported: the code is typed instead.
      });
    return () => controller.abort();
  }, [key]);
}
