import type { PageGeometry, ScreenBox } from '@/components/pdf-viewer.tsx';
import { useDragBox } from '@/components/pdf-viewer.tsx';

/** A box on a page overlay: dragged with mouse, pen or finger when `onMove` is given; × removes it. */
export function MovableBox({
  label,
  color,
  box,
  geometry,
  isSelected,
  onMove,
  onRemove,
  removeLabel,
  testId,
}: {
  label: string;
  color: string;
  box: ScreenBox;
  geometry: PageGeometry;
  isSelected?: boolean;
  onMove?: (box: ScreenBox) => void;
  onRemove?: () => void;
  removeLabel?: string;
  testId?: string;
}) {
  const { shown, handlers } = useDragBox(box, geometry, onMove);
  return (
    <div
      data-testid={testId}
      data-label={label}
      {...handlers}
      style={{
        position: 'absolute',
        ...shown,
        border: `${isSelected ? 2 : 1}px ${onMove ? 'solid' : 'dashed'} ${color}`,
        background: `${color}1f`,
        color,
        fontSize: 11,
        display: 'flex',
        alignItems: 'center',
        paddingLeft: 2,
        cursor: onMove ? 'move' : 'default',
        touchAction: onMove ? 'none' : 'auto',
        userSelect: 'none',
        overflow: 'hidden',
        whiteSpace: 'nowrap',
      }}
    >
      {label}
      {onRemove ? (
        <button
          type="button"
          aria-label={removeLabel}
          onClick={(e) => {
            e.stopPropagation();
            onRemove();
          }}
          style={{
            position: 'absolute',
            top: 0,
            right: 0,
            border: 0,
            background: color,
            color: '#fff',
            width: 14,
            height: 14,
            lineHeight: '12px',
            fontSize: 10,
            padding: 0,
            cursor: 'pointer',
          }}
        >
          ×
        </button>
      ) : null}
    </div>
  );
}

export const FIELD_COLOR = '#1677ff';
export const ROLE_COLORS = ['#ec1c23', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2', '#eb2f96'];
