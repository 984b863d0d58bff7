import { describe, expect, it } from 'vitest';
import { isTwilioSignatureValid, twilioSignature } from './twilio-sms-provider.js';

// Twilio's published example ("Webhooks security"): auth token 12345, this URL, these parameters.
const TOKEN = '12345';
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const params = (caller: string): [string, string][] => [
  ['To', '+18005551212'],
  ['Digits', '1234'],
  ['From', caller],
  ['CallSid', 'CA1234567890ABCDE'],
  ['Caller', caller],
];

describe('Twilio request signature', () => {
  it("reproduces Twilio's published example, whatever the parameters' order", () => {
    expect(twilioSignature(TOKEN, URL_, params('+14158675309'))).toBe(
      'RSOYDt4T1cUTdK1PDd93/VVr8B8=',
    );
    expect(twilioSignature(TOKEN, URL_, params('+12349013030'))).toBe(
      '0/KCTR6DLpKmkAf8muzZqo1nDgQ=',
    );
  });

  it('accepts that signature only for the same token, URL and parameters', () => {
    const good = 'RSOYDt4T1cUTdK1PDd93/VVr8B8=';
    expect(isTwilioSignatureValid(TOKEN, URL_, params('+14158675309'), good)).toBe(true);
    expect(isTwilioSignatureValid('54321', URL_, params('+14158675309'), good)).toBe(false);
    expect(isTwilioSignatureValid(TOKEN, `${URL_}&x=1`, params('+14158675309'), good)).toBe(false);
    expect(isTwilioSignatureValid(TOKEN, URL_, params('+14158675300'), good)).toBe(false);
    expect(isTwilioSignatureValid(TOKEN, URL_, params('+14158675309'), undefined)).toBe(false);
    expect(isTwilioSignatureValid(TOKEN, URL_, params('+14158675309'), '')).toBe(false);
  });
});
