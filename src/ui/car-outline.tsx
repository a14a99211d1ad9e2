import { useLingui } from '@lingui/react/macro';

import type { DamageMark } from '@/domain/handover';

/**
 * A car seen from above (front at the top), with damage marks at x/y % of the drawing. With
 * `onPick`, a click adds a mark where it lands; the keyboard's way is the zone list beside it
 * (src/features/staff/damage-editor.tsx). Marks are numbered as in the list.
 */
export function CarOutline({
  marks,
  onPick,
  className,
}: {
  marks: readonly DamageMark[];
  onPick?: (x: number, y: number) => void;
  className?: string;
}) {
  const { t } = useLingui();
  const count = marks.length;
  return (
    <svg
      viewBox="0 0 100 100"
      role="img"
      aria-label={t`Schéma de la voiture vue de dessus, avant en haut, ${count} dommage(s) marqué(s)`}
      className={className}
      data-testid="car-outline"
      onClick={
        onPick
          ? (event) => {
              const box = event.currentTarget.getBoundingClientRect();
              const x = ((event.clientX - box.left) / box.width) * 100;
              const y = ((event.clientY - box.top) / box.height) * 100;
              onPick(Math.round(x * 10) / 10, Math.round(y * 10) / 10);
            }
          : undefined
      }
    >
      <rect x="0" y="0" width="100" height="100" className="fill-muted" />
      <rect
        x="25"
        y="4"
        width="50"
        height="92"
        rx="14"
        className="fill-surface stroke-fg-muted"
        strokeWidth="1.2"
      />
      <rect x="31" y="24" width="38" height="14" rx="4" className="fill-line" />
      <rect x="31" y="66" width="38" height="10" rx="4" className="fill-line" />
      {[
        [21, 18],
        [75, 18],
        [21, 72],
        [75, 72],
      ].map(([x, y]) => (
        <rect
          key={`${x}-${y}`}
          x={x}
          y={y}
          width="4"
          height="12"
          rx="1.5"
          className="fill-fg-muted"
        />
      ))}
      {marks.map((mark, i) => (
        <g key={i} data-testid="damage-mark">
          <circle
            cx={mark.x}
            cy={mark.y}
            r="4"
            className="fill-danger stroke-surface"
            strokeWidth="0.8"
          />
          <text
            x={mark.x}
            y={mark.y + 1.6}
            textAnchor="middle"
            fontSize="4.5"
            className="fill-surface font-bold"
          >
            {i + 1}
          </text>
        </g>
      ))}
    </svg>
  );
}
