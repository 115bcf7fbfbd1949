import CommunicationsPage from '../../features/messages/communications-page';
import { WhatsappSetupTab, WhatsappTabLabel } from '../../features/whatsapp/whatsapp-setup-tab';
import { useAuth } from '../../lib/auth/auth-provider';

/** Communications; an admin also has the WhatsApp tab, to connect WhatsApp from the console (ADR 045). */
export default function CommunicationsRoute() {
  const { user } = useAuth();
  return (
    <CommunicationsPage
      extraTab={user?.role === 'admin' ? { label: <WhatsappTabLabel />, panel: <WhatsappSetupTab /> } : undefined}
    />
  );
}
