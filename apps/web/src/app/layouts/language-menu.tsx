import TranslateIcon from '@mui/icons-material/Translate';
import IconButton from '@mui/material/IconButton';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { preloadLanguages } from '../i18n/init';
import { toLanguage, type Language } from '../i18n/languages';

const loadLanguageList = () => import('./language-list');
const LanguageList = lazy(async () => ({ default: (await loadLanguageList()).LanguageList }));

/** Lists the locales; the i18n instance persists the choice and flips <html lang dir>. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first opening on, so that closing keeps MUI's exit transition.
  const [used, setUsed] = useState(false);
  const menuId = useId();
  const buttonId = useId();
  const current = toLanguage(i18n.language);
  const open = anchor !== null;

  const choose = (language: Language) => {
    setAnchor(null);
    if (language !== current) void i18n.changeLanguage(language);
  };

  return (
    <>
      <IconButton
        id={buttonId}
        color="inherit"
        aria-label={t('languageMenu.label')}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open}
        // The menu's code, and the other language's texts, start loading as a pointer or the
        // keyboard reaches the button.
        onPointerEnter={() => {
          void loadLanguageList();
          preloadLanguages(i18n);
        }}
        onFocus={() => {
          void loadLanguageList();
          preloadLanguages(i18n);
        }}
        onClick={(event) => {
          preloadLanguages(i18n);
          setUsed(true);
          setAnchor(event.currentTarget);
        }}
        sx={{ width: 48, height: 48 }}
      >
        <TranslateIcon />
      </IconButton>
      {used && (
        <Suspense fallback={null}>
          <LanguageList
            id={menuId}
            buttonId={buttonId}
            anchor={anchor}
            current={current}
            onChoose={choose}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      )}
    </>
  );
}
