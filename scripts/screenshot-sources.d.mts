export interface ScreenshotSource {
  spec: string;
  env: string;
  sources: string[];
}
export declare const SCREENSHOTS: Record<string, ScreenshotSource>;
export declare const MANIFEST: string;
export declare function fingerprint(root: string, name: string): string;
