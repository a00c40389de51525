import { render, screen, waitFor } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HydrationProvider, useHydrated } from "./use-hydrated";

function State() {
  return <p>{useHydrated() ? "hydrated" : "prerendered"}</p>;
}

describe("useHydrated", () => {
  it("is false in the prerendered HTML, under the provider", () => {
    expect(
      renderToString(
        <HydrationProvider>
          <State />
        </HydrationProvider>,
      ),
    ).toContain("prerendered");
  });

  it("turns true after the first render in the browser, and marks <html data-hydrated>", async () => {
    delete document.documentElement.dataset.hydrated;
    render(
      <HydrationProvider>
        <State />
      </HydrationProvider>,
    );
    expect(await screen.findByText("hydrated")).toBeInTheDocument();
    await waitFor(() =>
      expect(document.documentElement).toHaveAttribute("data-hydrated", "true"),
    );
  });

  it("is true outside the provider: a component rendered on its own is rendered by the browser", () => {
    render(<State />);
    expect(screen.getByText("hydrated")).toBeInTheDocument();
  });
});
