import { SessionFixture, verifiedItems as extract } from './session-fixture';

describe('a link to one of the project files in what the assistant says', () => {
  it('reads as the path in the item, which names it among its files', () => {
    // As Claude Code in VS Code closed a turn of the Safecast session.
    const [item] = extract(
      new SessionFixture()
        .prompt('the MCP server still reports CPS, can you fix the tool descriptions?')
        .edit('go/cmd/mcp-server/tool_device_history.go')
        .say(
          'Updated [tool_device_history.go:11](go/cmd/mcp-server/tool_device_history.go#L11) so that it states readings are CPM (counts per minute), not counts per second.',
        ),
    );
    expect(`${item!.title} ${item!.facts}`).toContain('`go/cmd/mcp-server/tool_device_history.go`');
    expect(`${item!.title} ${item!.facts}`).not.toContain('](');
    expect(item!.files).toContain('go/cmd/mcp-server/tool_device_history.go');
  });
});
