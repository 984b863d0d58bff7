import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';
import { useForkRef } from '@mui/material/utils';
import {
  useId,
  useLayoutEffect,
  useRef,
  type ChangeEvent,
  type KeyboardEventHandler,
  type ReactNode,
} from 'react';
import { takeTypedBeforeApp } from './typed-before-app';

export type TextFieldProps = Pick<
  OutlinedInputProps,
  'name' | 'type' | 'inputRef' | 'onChange' | 'onBlur' | 'placeholder'
> & {
  id?: string;
  label: ReactNode;
  value: string;
  helperText?: ReactNode;
  required?: boolean;
  error?: boolean;
  disabled?: boolean;
  fullWidth?: boolean;
  size?: 'small' | 'medium';
  sx?: SxProps<Theme>;
  onKeyDown?: KeyboardEventHandler<HTMLDivElement>;
  /** A native `<select>`; `children` are its `<option>`s. */
  select?: boolean;
  children?: ReactNode;
  slotProps?: {
    inputLabel?: { shrink?: boolean };
    htmlInput?: OutlinedInputProps['inputProps'];
  };
};

/** Input types for which the browser draws its own placeholder (dd/mm/yyyy, --:--) when empty. */
const typesWithBuiltInPlaceholder = new Set(['date', 'time', 'datetime-local', 'month', 'week']);

/**
 * Whether the label sits shrunk above the field whatever its value: `undefined` leaves it to the
 * form control (shrunk once focused or filled). MUI hides an empty field's placeholder under the
 * resting label with a `label + .MuiInputBase-formControl` CSS rule, but the server-rendered page
 * puts Emotion's <style> elements between the two, so the rule never matches and the label is
 * drawn over the placeholder. Shrinking it whenever something shows inside the empty field (a
 * placeholder, the browser's date mask, a select's chosen option) is correct on every render.
 */
export function labelShrinks({
  shrink,
  placeholder,
  type,
  select,
}: {
  shrink?: boolean;
  placeholder?: string;
  type?: string;
  select?: boolean;
}): boolean | undefined {
  if (shrink !== undefined) return shrink;
  if (select || (placeholder ?? '') !== '' || typesWithBuiltInPlaceholder.has(type ?? '')) {
    return true;
  }
  return undefined;
}

/**
 * MUI's outlined TextField, with the same DOM, classes and ids, for the props Marpe uses. MUI's
 * own imports its menu-based Select, and with it Menu, Popover, Modal and focus trapping, into
 * every page with a field; Marpe's selects are all native, so that code is never used.
 */
export function TextField({
  id: idProp,
  label,
  helperText,
  required = false,
  error = false,
  disabled = false,
  fullWidth = false,
  size,
  sx,
  onKeyDown,
  select = false,
  children,
  slotProps = {},
  value,
  inputRef,
  ...inputProps
}: TextFieldProps) {
  const field = useRef<HTMLInputElement | HTMLSelectElement>(null);
  const ref = useForkRef(field, inputRef);
  const { onChange } = inputProps;
  // Once, as the field first appears (before a re-render could replace what it shows): what the
  // patient typed into the page's HTML before the app took it over goes to the field's own change
  // handler (lib/typed-before-app.ts).
  useLayoutEffect(() => {
    const element = field.current;
    if (!element || !onChange) return;
    takeTypedBeforeApp(element, value, (typed) => {
      element.value = typed;
      onChange({ target: element, currentTarget: element } as ChangeEvent<HTMLInputElement>);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the field's first value only
  }, []);
  const generatedId = useId();
  const id = idProp ?? generatedId;
  const labelled = label != null && label !== '';
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  const shrink = labelShrinks({
    shrink: slotProps.inputLabel?.shrink,
    placeholder: inputProps.placeholder,
    type: inputProps.type,
    select,
  });
  const input = (
    <OutlinedInput
      {...inputProps}
      inputRef={ref}
      value={value}
      id={id}
      aria-describedby={helperTextId}
      fullWidth={fullWidth}
      label={label}
      notched={shrink}
      inputProps={slotProps.htmlInput}
    />
  );
  return (
    <FormControl
      className="MuiTextField-root"
      variant="outlined"
      required={required}
      error={error}
      disabled={disabled}
      fullWidth={fullWidth}
      size={size}
      sx={sx}
      onKeyDown={onKeyDown}
    >
      {labelled && (
        <InputLabel htmlFor={id} id={`${id}-label`} shrink={shrink}>
          {label}
        </InputLabel>
      )}
      {select ? (
        // As with MUI's Select: the value lets FormControl start out filled (the label's class on the
        // server), and the error state reaches the <select> (its MuiNativeSelect-error class).
        <NativeSelect input={input} value={value} inputProps={{ error }}>
          {children}
        </NativeSelect>
      ) : (
        input
      )}
      {helperText ? <FormHelperText id={helperTextId}>{helperText}</FormHelperText> : null}
    </FormControl>
  );
}
