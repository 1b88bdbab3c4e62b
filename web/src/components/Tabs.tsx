interface Tab {
  label: string;
  href: string;
  current: boolean;
}

/** Links that choose a view of a list (sort order, filter); the current one is aria-current="page". */
export function Tabs({ label, tabs }: { label: string; tabs: Tab[] }) {
  return (
    <nav aria-label={label} class="tabs">
      <ul>
        {tabs.map((tab) => (
          <li key={tab.label}>
            <a href={tab.href} aria-current={tab.current ? 'page' : undefined}>
              {tab.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
