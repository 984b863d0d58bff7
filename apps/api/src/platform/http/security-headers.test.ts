import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, securityHeaders } from './security-headers.js';

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
    expect(securityHeaders({ isHttps: false })).not.toHaveProperty('strict-transport-security');
    expect(securityHeaders({ isHttps: true })['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
  });
});
