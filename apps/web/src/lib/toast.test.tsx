import { act, render, renderHook, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS, ToastProvider, useToast } from './toast';

function Shout({ text }: { text: string }) {
  const { showToast } = useToast();
  return (
    <button type="button" onClick={() => showToast(text, 'success')}>
      go
    </button>
  );
}

describe('toasts', () => {
  it('refuses to work outside its provider, saying so', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useToast())).toThrow('useToast must be used within a ToastProvider');
  });

  it('shows the message bottom right and hides it after 4000 ms, not on a click elsewhere', () => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <Shout text="Student added successfully." />
      </ToastProvider>,
    );
    act(() => screen.getByRole('button', { name: 'go' }).click());
    expect(screen.getByText('Student added successfully.')).toBeInTheDocument();
    act(() => document.body.click());
    act(() => {
      vi.advanceTimersByTime(TOAST_DURATION_MS - 100);
    });
    expect(screen.getByText('Student added successfully.')).toBeVisible();
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.queryByText('Student added successfully.')).not.toBeVisible();
    vi.useRealTimers();
  });
});
