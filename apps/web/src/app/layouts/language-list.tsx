import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { languages, type Language } from '../../lib/languages';

/**
 * The open language menu. Its own import (with MUI's Menu, Popover and transitions): every page
 * shows the button, few patients open it.
 */
export function LanguageList({
  open,
  id,
  buttonId,
  anchor,
  current,
  onChoose,
  onClose,
}: {
  /** Open while it has an anchor; mounted from the first opening on (lib/lazy-on-open.tsx). */
  open: boolean;
  id: string;
  buttonId: string;
  anchor: HTMLElement | null;
  current: Language;
  onChoose: (language: Language) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={open && anchor !== null}
      onClose={onClose}
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
          onClick={() => onChoose(language)}
        >
          {t(`languages.${language}`)}
        </MenuItem>
      ))}
    </Menu>
  );
}
