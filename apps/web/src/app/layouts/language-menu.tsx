import TranslateIcon from '@mui/icons-material/Translate';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { languages, toLanguage, type Language } from '../i18n/init';

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
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ width: 48, height: 48 }}
      >
        <TranslateIcon />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
        // Rendered inside the app bar, so the open menu stays within the banner landmark.
        disablePortal
        slotProps={{ list: { 'aria-labelledby': buttonId } }}
      >
        {languages.map((language) => (
          <MenuItem
            key={language}
            lang={language}
            role="menuitemradio"
            aria-checked={language === current}
            selected={language === current}
            onClick={() => choose(language)}
          >
            {t(`languages.${language}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
