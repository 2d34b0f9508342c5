'use client';
// This segment's error boundary: a failed render shows the translated error screen, never a blank page.
import { ErrorScreen, type SegmentErrorProps } from '@/app/_lib/error-screen';

export default function SegmentError(props: SegmentErrorProps) {
  return <ErrorScreen {...props} />;
}
