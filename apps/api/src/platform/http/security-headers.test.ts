import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, cspDirectivesFor, securityHeaders } from './security-headers.js';

const tranzila = 'https://direct.tranzila.com';

describe('contentSecurityPolicy', () => {
  it('writes the directives in order, dashed, as helmet did', () => {
    expect(contentSecurityPolicy()).toMatch(
      /^default-src 'self';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';/,
    );
    expect(contentSecurityPolicy()).toMatch(/;frame-ancestors 'none'$/);
  });

  it('replaces whole directives and adds new ones at the end', () => {
    const policy = contentSecurityPolicy({
      scriptSrc: ["'self'", 'https://connect.facebook.net'],
      upgradeInsecureRequests: [],
    });
    expect(policy).toContain(";script-src 'self' https://connect.facebook.net;");
    expect(policy).toMatch(/;frame-ancestors 'none';upgrade-insecure-requests$/);
  });

  it('refuses sources that would change the meaning of the header', () => {
    expect(() => contentSecurityPolicy({ scriptSrc: ['self'] })).toThrow(/Invalid CSP source/);
    expect(() => contentSecurityPolicy({ scriptSrc: ["'self'; img-src *"] })).toThrow();
    expect(() => contentSecurityPolicy({ 'Script-Src': ["'self'"] })).toThrow(/directive name/);
  });
});

describe('securityHeaders', () => {
  it('adds HSTS only over https', () => {
    expect(securityHeaders({ isHttps: false, cardFrameBaseUrl: tranzila })).not.toHaveProperty(
      'strict-transport-security',
    );
    expect(
      securityHeaders({ isHttps: true, cardFrameBaseUrl: tranzila })['strict-transport-security'],
    ).toBe('max-age=31536000; includeSubDomains');
  });

  it("lets exactly 'self' and the card frame's origin into frames", () => {
    const policy = (cardFrameBaseUrl: string) =>
      securityHeaders({ isHttps: false, cardFrameBaseUrl })['content-security-policy'];
    expect(policy(tranzila)).toContain(";frame-src 'self' https://direct.tranzila.com;");
    expect(policy('http://localhost:3000/api/sandbox')).toContain(
      ";frame-src 'self' http://localhost:3000;",
    );
    expect(cspDirectivesFor({ cardFrameBaseUrl: 'https://pay.example:8443/x/y' }).frameSrc).toEqual(
      ["'self'", 'https://pay.example:8443'],
    );
  });
});
