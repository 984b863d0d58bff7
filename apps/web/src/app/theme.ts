import { alpha, createTheme, type Theme } from '@mui/material/styles';
import type { Direction } from '../lib/languages';

export const brandCyan = '#00BCD4';
/** #00BCD4 on white is 2.3:1; wherever cyan is the colour of text on white, this 4.5:1 shade is used. */
export const textCyan = '#00838F';
/** A darker shade for cyan text on a light cyan tint (hovered buttons): 5.5:1 on the tint. */
export const textCyanOnTint = '#006F79';
/**
 * The one colour of success (done, paid, booked) and the one of waiting (a wait before trying
 * again, a place on the waiting list, answers not yet saved), on every page: as text or an icon on
 * white, and under white text in a filled alert, each at least 4.5:1.
 */
export const successGreen = '#2E7D32';
export const waitingAmber = '#A64B00';
/** Near-black teal: visible on white and on the cyan app bar alike. */
const focusRing = '#00363A';

export function createAppTheme(direction: Direction): Theme {
  return createTheme({
    direction,
    palette: {
      mode: 'light',
      // Contained buttons and the app bar keep dark text on cyan (7.9:1); hover stays light enough for it.
      primary: { main: brandCyan, dark: '#00ACC1', contrastText: 'rgba(0, 0, 0, 0.87)' },
      // A fill only: text on it is dark.
      secondary: { main: '#B2EBF2', contrastText: 'rgba(0, 0, 0, 0.87)' },
      success: { main: successGreen, dark: '#1B5E20', contrastText: '#FFFFFF' },
      warning: { main: waitingAmber, dark: '#7A3700', contrastText: '#FFFFFF' },
    },
    typography: {
      fontFamily: '"Heebo", "Arial", sans-serif',
      // Only 400, 500 and 700 are shipped (see fonts.css).
      fontWeightLight: 400,
      h4: { fontWeight: 700 },
      h5: { fontWeight: 700 },
      h6: { fontWeight: 500 },
      button: { textTransform: 'none' },
    },
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          ':focus-visible': { outline: `3px solid ${focusRing}`, outlineOffset: 2 },
          // Headings and <main> get focus only programmatically (route changes, skip link).
          '[tabindex="-1"]:focus': { outline: 'none' },
        },
      },
      // No ripple: on a slow phone it held every tap back (figures in ADR 034). A pressed
      // control darkens instead, in CSS alone, from the touch itself; focus keeps its ring.
      MuiButtonBase: {
        defaultProps: { disableRipple: true },
        styleOverrides: {
          root: {
            '&.Mui-focusVisible': { outline: `3px solid ${focusRing}`, outlineOffset: 2 },
            '&:active:not(.Mui-disabled, [aria-disabled="true"])': { filter: 'brightness(0.92)' },
          },
        },
      },
      MuiButton: {
        styleOverrides: {
          root: {
            minHeight: 44,
            variants: [
              {
                props: { color: 'primary' },
                style: {
                  '--variant-textColor': textCyan,
                  '--variant-outlinedColor': textCyan,
                  '--variant-outlinedBorder': alpha(textCyan, 0.5),
                  '@media (hover: hover)': {
                    '&:hover': {
                      // The tint under the text would take #00838F just under 4.5:1.
                      '--variant-textColor': textCyanOnTint,
                      '--variant-outlinedColor': textCyanOnTint,
                      '--variant-textBg': alpha(textCyan, 0.06),
                      '--variant-outlinedBorder': textCyan,
                      '--variant-outlinedBg': alpha(textCyan, 0.06),
                    },
                  },
                },
              },
            ],
          },
        },
      },
      MuiLink: {
        styleOverrides: {
          root: {
            variants: [
              {
                props: { color: 'primary' },
                style: { color: textCyan, '--Link-underlineColor': alpha(textCyan, 0.4) },
              },
            ],
          },
        },
      },
      // A focused field's label and outline are cyan: the text shade, so the label stays legible.
      MuiFormLabel: {
        styleOverrides: {
          root: {
            variants: [
              {
                props: { color: 'primary' },
                style: { '&.Mui-focused:not(.Mui-error)': { color: textCyan } },
              },
            ],
          },
        },
      },
      MuiOutlinedInput: {
        styleOverrides: {
          root: {
            variants: [
              {
                props: { color: 'primary' },
                style: {
                  '&.Mui-focused:not(.Mui-error) .MuiOutlinedInput-notchedOutline': {
                    borderColor: textCyan,
                  },
                },
              },
            ],
          },
        },
      },
      MuiMenuItem: {
        styleOverrides: { root: { minHeight: 44 } },
      },
    },
  });
}
