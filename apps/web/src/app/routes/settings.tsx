import { useNavigate } from 'react-router';
import { CentreSettingsPage } from '../../features/centre/centre-settings-page';
import { PhoneCountryCodeSetting } from '../../features/settings/phone-country-code-setting';

/**
 * Centre settings (admins): the centre's own page, with the phone settings' country code control in
 * its place (one control for it, here and beside the students' phones). Also the first sign-in's set-up.
 */
export default function SettingsRoute() {
  const navigate = useNavigate();
  return (
    <CentreSettingsPage
      countryCode={<PhoneCountryCodeSetting />}
      onSetUp={() => navigate('/dashboard', { replace: true })}
    />
  );
}
