/**
 * docs/product/site.md#snackbars: snackbars without a timeout of their own (booking confirmed,
 * booking error and SMS have 3000 ms) stay for the library default, 5000 ms. MUI's Snackbar has no
 * default: it would stay until closed.
 */
export const snackbarDefaultMs = 5000;
