/**
 * The two clocks every view reads: `asOf` (what memory held at t) and `validAt` (what was
 * true in the world at t). Null means now. One control each, a slider over a chosen window
 * and an exact date field, both keyboard operable.
 */
import { createContext, useContext, useId, useState, type ReactNode } from 'react';

export interface TimeTravel {
  asOf: string | null;
  validAt: string | null;
  setAsOf: (t: string | null) => void;
  setValidAt: (t: string | null) => void;
}

const TimeContext = createContext<TimeTravel>({
  asOf: null, validAt: null, setAsOf: () => undefined, setValidAt: () => undefined,
});

export function TimeProvider({ children }: { children: ReactNode }) {
  const [asOf, setAsOf] = useState<string | null>(null);
  const [validAt, setValidAt] = useState<string | null>(null);
  return (
    <TimeContext.Provider value={{ asOf, validAt, setAsOf, setValidAt }}>
      {children}
    </TimeContext.Provider>
  );
}

export function useTime(): TimeTravel {
  return useContext(TimeContext);
}

const WINDOWS: Record<string, number> = {
  'last hour': 3600e3, 'last day': 86400e3, 'last 30 days': 30 * 86400e3,
  'last year': 365 * 86400e3,
};
const STEPS = 1000;

/** `datetime-local` wants local wall-clock time without a zone. */
function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function Clock({ label, hint, value, onChange }: {
  label: string; hint: string; value: string | null; onChange: (t: string | null) => void;
}) {
  const id = useId();
  const [windowName, setWindowName] = useState('last day');
  const span = WINDOWS[windowName] ?? 86400e3;
  const now = Date.now();
  const position = value === null ? STEPS
    : Math.max(0, Math.min(STEPS, Math.round(STEPS - ((now - Date.parse(value)) / span) * STEPS)));
  const fromSlider = (step: number) => {
    onChange(step >= STEPS ? null : new Date(now - ((STEPS - step) / STEPS) * span).toISOString());
  };
  const fromField = (text: string) => {
    const t = Date.parse(text);
    onChange(text && !Number.isNaN(t) ? new Date(t).toISOString() : null);
  };
  return (
    <fieldset className="clock">
      <legend>{label}</legend>
      <p className="hint" id={`${id}-hint`}>{hint}</p>
      <div className="clock-row">
        <label htmlFor={`${id}-range`} className="sr-only">{label}: slider</label>
        <input id={`${id}-range`} type="range" min={0} max={STEPS} value={position}
          aria-describedby={`${id}-hint`}
          aria-valuetext={value === null ? 'now' : new Date(value).toLocaleString()}
          onChange={(e) => fromSlider(Number(e.target.value))} />
        <label htmlFor={`${id}-window`} className="sr-only">{label}: slider window</label>
        <select id={`${id}-window`} value={windowName} onChange={(e) => setWindowName(e.target.value)}>
          {Object.keys(WINDOWS).map((w) => <option key={w}>{w}</option>)}
        </select>
      </div>
      <div className="clock-row">
        <label htmlFor={`${id}-at`}>At</label>
        <input id={`${id}-at`} type="datetime-local" step={1}
          value={value === null ? '' : toLocalInput(value)}
          onChange={(e) => fromField(e.target.value)} />
        <button type="button" onClick={() => onChange(null)} disabled={value === null}>Now</button>
      </div>
      <p className="clock-value" aria-live="polite">
        {value === null ? 'Now' : new Date(value).toLocaleString()}
      </p>
    </fieldset>
  );
}

function summary(asOf: string | null, validAt: string | null): string {
  if (!asOf && !validAt) return 'Time travel: now';
  const parts = [asOf ? `memory as of ${new Date(asOf).toLocaleString()}` : '',
    validAt ? `true at ${new Date(validAt).toLocaleString()}` : ''].filter(Boolean);
  return `Time travel: ${parts.join(', ')}`;
}

/** Open from the start on a wide screen; one line to open on a narrow one. */
export function TimeControls() {
  const { asOf, validAt, setAsOf, setValidAt } = useTime();
  const [open] = useState(() => window.matchMedia('(min-width: 701px)').matches);
  return (
    <details className="time-travel" open={open}>
      <summary>{summary(asOf, validAt)}</summary>
      <section className="time" aria-label="Time travel">
        <Clock label="Memory as of" value={asOf} onChange={setAsOf}
          hint="What graphmem held at that moment (asOf)." />
        <Clock label="True in the world at" value={validAt} onChange={setValidAt}
          hint="What was valid in the world then (validAt)." />
      </section>
    </details>
  );
}
