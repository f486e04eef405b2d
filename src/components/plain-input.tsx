import { type InputHTMLAttributes, useState } from 'react';
import { useT } from '@/i18n/i18n-store.ts';
import { PRIMARY_COLOR } from '@/lib/theme.ts';

// An input that looks like antd's Input (and Input.Password) without antd: the login page is the first thing
// most visitors download, and antd's input, icons and style engine were a third of its JavaScript. Same
// sizes, border, focus ring and error state as the antd theme of src/lib/theme.ts.

const CSS = `
.plain-input{box-sizing:border-box;width:100%;min-width:0;height:32px;padding:4px 11px;font:inherit;font-size:14px;
line-height:1.5715;color:rgba(0,0,0,.88);background:#fff;border:1px solid #d9d9d9;border-radius:6px;
transition:border-color .2s,box-shadow .2s;outline:none}
.plain-input:hover{border-color:${PRIMARY_COLOR}}
.plain-input:focus,.plain-input:focus-within{border-color:${PRIMARY_COLOR};box-shadow:0 0 0 2px ${PRIMARY_COLOR}1a}
.plain-input[aria-invalid=true],.plain-input.is-error{border-color:#ff4d4f}
.plain-input[aria-invalid=true]:focus,.plain-input.is-error:focus-within{box-shadow:0 0 0 2px #ff4d4f1a}
.plain-input-affix{display:flex;align-items:center;gap:4px;padding-right:4px}
.plain-input-affix>input{flex:1;min-width:0;border:0;outline:none;padding:0;font:inherit;background:transparent;color:inherit}
.plain-input-eye{display:inline-flex;align-items:center;justify-content:center;width:28px;height:24px;padding:0;
border:0;background:transparent;color:rgba(0,0,0,.45);cursor:pointer;border-radius:4px}
.plain-input-eye:hover{color:rgba(0,0,0,.88)}
.plain-input-eye:focus-visible{outline:2px solid ${PRIMARY_COLOR}66}
@media (max-width:540px){.plain-input{font-size:16px}}
`;

function Style() {
  // React 19 hoists this into <head> once, however many inputs there are.
  return (
    <style href="plain-input" precedence="default">
      {CSS}
    </style>
  );
}

type PlainInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  type?: 'text' | 'password';
};

/** A text input; `type="password"` adds a button that shows or hides what was typed. */
export function PlainInput({ type = 'text', className, ...rest }: PlainInputProps) {
  const t = useT();
  const [isShown, setIsShown] = useState(false);
  if (type !== 'password') {
    return (
      <>
        <Style />
        <input {...rest} type="text" className={['plain-input', className].filter(Boolean).join(' ')} />
      </>
    );
  }
  const isError = rest['aria-invalid'] === true || rest['aria-invalid'] === 'true';
  return (
    <span
      className={['plain-input', 'plain-input-affix', isError && 'is-error', className]
        .filter(Boolean)
        .join(' ')}
    >
      <Style />
      <input {...rest} type={isShown ? 'text' : 'password'} />
      <button
        type="button"
        className="plain-input-eye"
        aria-label={t(isShown ? 'field.hidePassword' : 'field.showPassword')}
        aria-pressed={isShown}
        onClick={() => setIsShown((v) => !v)}
      >
        <svg
          viewBox="0 0 24 24"
          width="16"
          height="16"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" />
          <circle cx="12" cy="12" r="3" />
          {isShown ? null : <path d="M3 3l18 18" />}
        </svg>
      </button>
    </span>
  );
}
