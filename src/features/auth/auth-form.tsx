import { type FormEvent, type ReactNode, useState } from 'react';
import type { MessageKey } from '@/i18n/en-US.ts';
import { PlainInput } from '@/components/plain-input.tsx';
import { useT } from '@/i18n/i18n-store.ts';
import type { Check } from './rules.ts';

// The auth pages use this small form instead of antd Form: antd Form brings its validator, tooltips and
// popup engine, about a seventh of the login page's JS budget, for four fields.

type FieldSpec = { check: Check };

/** Values and per-field errors of a form; validate() checks every field and says whether all passed. */
export function useAuthForm<K extends string>(specs: Record<K, FieldSpec>) {
  const keys = Object.keys(specs) as K[];
  const [values, setValues] = useState(
    () => Object.fromEntries(keys.map((k) => [k, ''])) as Record<K, string>,
  );
  const [errors, setErrors] = useState<Partial<Record<K, MessageKey>>>({});

  const checkOne = (key: K, all: Record<K, string>) => specs[key].check(all[key]) ?? undefined;
  const setValue = (key: K, value: string) => {
    const next = { ...values, [key]: value };
    setValues(next);
    // Re-check a field once it has shown an error, so the message goes away as soon as it is fixed.
    if (errors[key]) setErrors((e) => ({ ...e, [key]: checkOne(key, next) }));
  };
  const validate = (only?: K[]): boolean => {
    const found: Partial<Record<K, MessageKey>> = only ? { ...errors } : {};
    for (const key of only ?? keys) found[key] = checkOne(key, values);
    setErrors(found);
    return (only ?? keys).every((key) => !found[key]);
  };
  return { values, errors, setValue, validate };
}

type FieldProps = {
  id: string;
  label: string;
  error?: MessageKey;
  children: (a11y: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
};

/** A labelled field with its error under it; the input is found by its label. */
export function Field({ id, label, error, children }: FieldProps) {
  const t = useT();
  const errorId = `${id}-error`;
  return (
    <div style={{ marginBottom: 16 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 6 }}>
        {label}
      </label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        'aria-describedby': error ? errorId : undefined,
      })}
      {error && (
        <div id={errorId} role="alert" style={{ color: '#ff4d4f', fontSize: 13, marginTop: 4 }}>
          {t(error)}
        </div>
      )}
    </div>
  );
}

/** Text field bound to a form value. */
export function TextField(props: {
  name: string;
  label: string;
  value: string;
  error?: MessageKey;
  onChange: (value: string) => void;
  type?: 'text' | 'password';
  autoComplete?: string;
  inputMode?: 'tel' | 'numeric' | 'text';
  maxLength?: number;
}) {
  const { name, label, value, error, onChange, type = 'text', autoComplete, inputMode, maxLength } = props;
  return (
    <Field id={name} label={label} error={error}>
      {(a11y) => (
        <PlainInput
          {...a11y}
          type={type}
          name={name}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete={autoComplete}
          inputMode={inputMode}
          maxLength={maxLength}
        />
      )}
    </Field>
  );
}

/** A form element that never reloads the page. */
export function AuthForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      noValidate
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
