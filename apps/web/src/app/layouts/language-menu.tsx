import TranslateIcon from '../../lib/icons/translate';
import IconButton from '@mui/material/IconButton';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyOnOpen } from '../../lib/lazy-on-open';
import { preloadLanguages } from '../i18n/init';
import { toLanguage, type Language } from '../../lib/languages';

// Its code comes once the page is idle, so that the first tap opens it at once.
const LanguageList = lazyOnOpen(async () => (await import('./language-list')).LanguageList);

/** Lists the locales; the i18n instance persists the choice and flips <html lang dir>. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
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
        // The other language's texts start loading as a pointer or the keyboard reaches the
        // button.
        onPointerEnter={() => preloadLanguages(i18n)}
        onFocus={() => preloadLanguages(i18n)}
        onClick={(event) => {
          preloadLanguages(i18n);
          setAnchor(event.currentTarget);
        }}
        sx={{ width: 48, height: 48 }}
      >
        <TranslateIcon />
      </IconButton>
      <LanguageList
        open={open}
        id={menuId}
        buttonId={buttonId}
        anchor={anchor}
        current={current}
        onChoose={choose}
        onClose={() => setAnchor(null)}
      />
    </>
  );
}
