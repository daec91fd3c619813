export function GrapeIcon({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" className="grape-icon">
      <path
        d="M16 7c0-3 2-5 5-5"
        stroke="#4d7c0f"
        strokeWidth="2"
        fill="none"
        strokeLinecap="round"
      />
      <path d="M16 6c-3-3-8-2-9 1 3 1 6 1 9-1z" fill="#65a30d" />
      <g fill="#7c3aed">
        <circle cx="11" cy="11" r="4" />
        <circle cx="19" cy="11" r="4" />
        <circle cx="15" cy="17" r="4" />
        <circle cx="23" cy="16" r="3.5" fill="#6d28d9" />
        <circle cx="8" cy="17" r="3.5" fill="#6d28d9" />
        <circle cx="12" cy="23" r="3.8" />
        <circle cx="19" cy="23" r="3.8" fill="#6d28d9" />
        <circle cx="15.5" cy="28" r="3.2" />
      </g>
    </svg>
  );
}
