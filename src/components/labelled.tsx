import { type ReactNode, useId } from 'react';

/** A field with its label above (tests find the input by the label) and its error below. */
export function Labelled({
  label,
  error,
  children,
}: {
  label: string;
  error?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div style={{ marginBottom: 12, minWidth: 0 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 4 }}>
        {label}
      </label>
      {children(id)}
      {error ? (
        <div role="alert" style={{ color: '#ff4d4f', marginTop: 2, fontSize: 13 }}>
          {error}
        </div>
      ) : null}
    </div>
  );
}
