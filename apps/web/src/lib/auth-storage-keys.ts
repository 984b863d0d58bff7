// Where the patient's login lives in the browser (docs/product/login.md#session). Their own module,
// so the script that wakes a page painted from HTML (ADR 025) can see whether there is a session or
// a code on its way without loading the API client or the session store: the server, which rendered
// the page, could not.

/** The session token, in localStorage. */
export const tokenStorageKey = 'token';

/** A verification in progress (the code step), with its two-factor token, in sessionStorage. */
export const verificationStorageKey = 'verification';
