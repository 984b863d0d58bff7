/** The production server under test runs with these, so canonical and parent links are checkable. */
export const PUBLIC_ORIGIN = 'https://marpe.example';
export const PARENT_SITE_URL = 'https://parent.marpe.example/';
