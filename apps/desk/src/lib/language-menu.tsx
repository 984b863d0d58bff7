import TranslateIcon from './icons/translate';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

const names = { he: 'עברית', en: 'English' } as const;

/** Switches between Hebrew and English; the other language's name, in that language. */
export function LanguageMenu({ color = 'primary' }: { color?: 'primary' | 'inherit' }) {
  const { i18n } = useTranslation();
  const other = i18n.language === 'en' ? 'he' : 'en';
  return (
    <Button
      color={color}
      startIcon={<TranslateIcon />}
      onClick={() => void i18n.changeLanguage(other)}
      lang={other}
    >
      {names[other]}
    </Button>
  );
}
