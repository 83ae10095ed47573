'use client';

import { useMenuButton } from '@/components/call/layout/useMenuButton';

export interface DeviceMenuProps {
  /** The button's name ("Choose microphone"). */
  label: string;
  /** What a device without a name is called, numbered ("Microphone 2"). */
  kindName: string;
  devices: MediaDeviceInfo[];
  /** The device in use; an id not listed (or 'default') marks the first one, the browser's default. */
  activeId: string;
  onChoose: (deviceId: string) => void;
  disabled?: boolean;
  /** Where the list opens: below the button (the pre-join) or above it (the control bar). */
  opens: 'below' | 'above';
}

/**
 * The chevron beside the microphone or camera button and its list of devices, in LiveKit's markup
 * and classes. One component for the pre-join (the browser's devices) and the call (the room's,
 * through useMediaDeviceSelect). LiveKit's MediaDeviceMenu positions its list with floating-ui,
 * about 6 KB of the call's JavaScript for a list that opens in one known place. Escape or a press
 * outside closes it (useMenuButton).
 */
export function DeviceMenu({ label, kindName, devices, activeId, onChoose, disabled = false, opens }: DeviceMenuProps) {
  const { open, setOpen, button, menu, onMenuKeyDown } = useMenuButton();
  const active = devices.some((d) => d.deviceId === activeId) ? activeId : devices[0]?.deviceId;
  const choose = (deviceId: string) => {
    onChoose(deviceId);
    setOpen(false);
  };
  return (
    <div className="lk-button-group-menu">
      <button
        ref={button}
        type="button"
        className="lk-button lk-button-menu"
        aria-label={label}
        aria-haspopup="listbox"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
      />
      {open && (
        <div
          ref={menu}
          className="lk-device-menu"
          style={opens === 'below' ? { top: '100%' } : { top: 'auto', bottom: '100%' }}
          onKeyDown={onMenuKeyDown}
        >
          <ul className="lk-media-device-select lk-list" role="listbox" aria-label={label}>
            {devices.map((d, i) => (
              <li
                key={d.deviceId || i}
                role="option"
                aria-selected={d.deviceId === active}
                data-lk-active={d.deviceId === active}
                className="lk-button"
                tabIndex={0}
                onClick={() => choose(d.deviceId)}
                onKeyDown={(e) => {
                  if (e.key !== 'Enter' && e.key !== ' ') return;
                  e.preventDefault();
                  choose(d.deviceId);
                }}
              >
                {d.label || `${kindName} ${i + 1}`}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
