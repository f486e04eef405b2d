import type { ButtonHTMLAttributes } from 'react';
import { PRIMARY_COLOR } from '@/lib/theme.ts';

// A button that looks like antd's but needs neither antd nor its CSS-in-JS: the signing room and the parts it
// shares (PDF viewer, signature pad) are what a signer's phone downloads first, and antd's core, theme tokens
// and style engine were a third of that page's JavaScript and most of its main-thread work.

const CSS = `
.plain-btn{display:inline-flex;align-items:center;justify-content:center;gap:8px;box-sizing:border-box;
height:32px;padding:4px 15px;font:inherit;font-size:14px;line-height:1.5715;white-space:nowrap;cursor:pointer;
color:rgba(0,0,0,.88);background:#fff;border:1px solid #d9d9d9;border-radius:6px;
transition:color .2s,border-color .2s,background .2s;touch-action:manipulation}
.plain-btn:hover{color:${PRIMARY_COLOR};border-color:${PRIMARY_COLOR}}
.plain-btn:focus-visible{outline:3px solid ${PRIMARY_COLOR}40;outline-offset:1px}
.plain-btn.is-primary{color:#fff;background:${PRIMARY_COLOR};border-color:${PRIMARY_COLOR}}
.plain-btn.is-primary:hover{opacity:.85}
.plain-btn.is-danger{color:#ff4d4f;border-color:#ff4d4f}
.plain-btn.is-link,.plain-btn.is-text{border-color:transparent;background:transparent;box-shadow:none}
.plain-btn.is-link{color:${PRIMARY_COLOR}}
.plain-btn.is-link:hover{opacity:.75}
.plain-btn.is-text:hover{color:rgba(0,0,0,.88);background:rgba(0,0,0,.06)}
.plain-btn.is-danger.is-primary{color:#fff;background:#ff4d4f}
.plain-btn.is-small{height:24px;padding:0 7px;border-radius:4px}
.plain-btn.is-large{height:40px;padding:7px 15px;font-size:16px;border-radius:8px}
.plain-btn.is-block{display:flex;width:100%}
.plain-btn:disabled,.plain-btn:disabled:hover{cursor:not-allowed;opacity:1;color:rgba(0,0,0,.25);
background:rgba(0,0,0,.04);border-color:#d9d9d9}
.plain-btn[aria-busy=true]{cursor:default;opacity:.65}
.plain-btn-spin{width:1em;height:1em;border:2px solid currentColor;border-right-color:transparent;
border-radius:50%;animation:plain-btn-spin .8s linear infinite}
@keyframes plain-btn-spin{to{transform:rotate(360deg)}}
`;

type PlainButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  kind?: 'default' | 'primary' | 'link' | 'text';
  isDanger?: boolean;
  size?: 'small' | 'middle' | 'large';
  isBlock?: boolean;
  /** Work is under way: a spinner shows and clicks are ignored (the button keeps its name). */
  isBusy?: boolean;
  htmlType?: 'button' | 'submit';
};

export function PlainButton({
  kind = 'default',
  isDanger = false,
  size = 'middle',
  isBlock = false,
  isBusy = false,
  htmlType = 'button',
  className,
  onClick,
  children,
  ...rest
}: PlainButtonProps) {
  const classes = [
    'plain-btn',
    kind !== 'default' && `is-${kind}`,
    isDanger && 'is-danger',
    size !== 'middle' && `is-${size}`,
    isBlock && 'is-block',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <>
      {/* React 19 hoists this into <head> once, however many buttons there are. */}
      <style href="plain-button" precedence="default">
        {CSS}
      </style>
      <button
        {...rest}
        type={htmlType}
        className={classes}
        aria-busy={isBusy || undefined}
        onClick={(e) => {
          if (isBusy) e.preventDefault();
          else onClick?.(e);
        }}
      >
        {isBusy ? <span className="plain-btn-spin" aria-hidden="true" /> : null}
        {children}
      </button>
    </>
  );
}
