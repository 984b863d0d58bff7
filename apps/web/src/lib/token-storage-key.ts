/**
 * Where the session token is kept (SPEC § 3 "Auth state"): localStorage under this key. Its own
 * module, so the script that wakes a page painted from HTML (ADR 025) can see whether there is a
 * session without loading the API client.
 */
export const tokenStorageKey = 'token';
