import { Component, type ReactNode } from "react";

/**
 * Around a lazily loaded widget over a server-rendered fallback: a chunk that fails to load (offline, a deploy in
 * between) shows nothing, and the fallback stays.
 */
export class NothingOnError extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
