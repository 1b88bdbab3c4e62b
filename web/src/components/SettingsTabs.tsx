import { useLocation } from 'preact-iso';
import { paths } from '../paths.ts';
import { Tabs } from './Tabs.tsx';

/** Between the two settings pages. */
export function SettingsTabs() {
  const { path } = useLocation();
  return (
    <Tabs
      label="Settings pages"
      tabs={[
        { label: 'Profile', href: paths.profileSettings, current: path === paths.profileSettings },
        { label: 'Password', href: paths.passwordSettings, current: path === paths.passwordSettings },
      ]}
    />
  );
}
