import { alpha, createTheme, type Theme } from '@mui/material/styles';
import type { Direction } from './i18n/languages';

/** The brand's cyan, as on the patient pages: contained buttons keep dark text on it (7.9:1). */
const brand = {
  cyan: '#00BCD4',
  /**
   * Cyan text: the patient pages' #00838F is 4.5:1 on white only, and the desk's pages lie on a
   * light grey (#F5F7F8) and on tints; this shade keeps 5.5:1 on all of them.
   */
  textCyan: '#006F79',
  /** On a hovered button's light cyan tint. */
  textCyanOnTint: '#005A62',
  tint: '#B2EBF2',
  focus: '#00363A',
};

export function createDeskTheme(direction: Direction): Theme {
  return createTheme({
    direction,
    palette: {
      mode: 'light',
      primary: { main: brand.cyan, dark: '#00ACC1', contrastText: 'rgba(0, 0, 0, 0.87)' },
      secondary: { main: brand.tint, contrastText: 'rgba(0, 0, 0, 0.87)' },
      success: { main: '#2E7D32', contrastText: '#FFFFFF' },
      warning: { main: '#A64B00', contrastText: '#FFFFFF' },
      background: { default: '#F5F7F8' },
    },
    typography: {
      fontFamily: '"Heebo", "Arial", sans-serif',
      button: { textTransform: 'none' },
      h1: { fontSize: '1.75rem', fontWeight: 700 },
      h2: { fontSize: '1.3rem', fontWeight: 700 },
      h3: { fontSize: '1.1rem', fontWeight: 500 },
    },
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          ':focus-visible': { outline: `3px solid ${brand.focus}`, outlineOffset: 2 },
          '[tabindex="-1"]:focus': { outline: 'none' },
          // Words for screen readers only (a button's object: "remove" + which one).
          '.visually-hidden': {
            position: 'absolute',
            width: 1,
            height: 1,
            margin: -1,
            padding: 0,
            overflow: 'hidden',
            clip: 'rect(0 0 0 0)',
            whiteSpace: 'nowrap',
            border: 0,
          },
        },
      },
      MuiButtonBase: {
        defaultProps: { disableRipple: true },
        styleOverrides: {
          root: { '&.Mui-focusVisible': { outline: `3px solid ${brand.focus}`, outlineOffset: 2 } },
        },
      },
      // Cyan as the colour of text on white (text and outlined buttons, links, a focused field's
      // label and outline) takes the 4.5:1 shade, through the variables MUI's components read.
      MuiButton: {
        styleOverrides: {
          root: {
            variants: [
              {
                props: { color: 'primary' },
                style: {
                  '--variant-textColor': brand.textCyan,
                  '--variant-outlinedColor': brand.textCyan,
                  '--variant-outlinedBorder': alpha(brand.textCyan, 0.5),
                  '&:hover': {
                    '--variant-textColor': brand.textCyanOnTint,
                    '--variant-outlinedColor': brand.textCyanOnTint,
                    '--variant-textBg': alpha(brand.textCyan, 0.06),
                    '--variant-outlinedBg': alpha(brand.textCyan, 0.06),
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
                style: {
                  color: brand.textCyan,
                  '--Link-underlineColor': alpha(brand.textCyan, 0.4),
                },
              },
            ],
          },
        },
      },
      MuiFormLabel: {
        styleOverrides: {
          root: { '&.Mui-focused:not(.Mui-error)': { color: brand.textCyan } },
        },
      },
      MuiOutlinedInput: {
        styleOverrides: {
          root: {
            '&.Mui-focused:not(.Mui-error) .MuiOutlinedInput-notchedOutline': {
              borderColor: brand.textCyan,
            },
          },
        },
      },
      MuiCheckbox: { styleOverrides: { root: { '&.Mui-checked': { color: brand.textCyan } } } },
      MuiRadio: { styleOverrides: { root: { '&.Mui-checked': { color: brand.textCyan } } } },
      MuiSwitch: {
        styleOverrides: {
          switchBase: { '&.Mui-checked': { color: brand.textCyan } },
        },
      },
      MuiTextField: { defaultProps: { fullWidth: true } },
    },
  });
}
