// Where a page would set up or switch on one of this server's local models, when its
// operator keeps them (--no-workspace-local-models): said instead of the buttons.

export function OperatorModels(props: { id: string }) {
  return (
    <p class="small" id={props.id}>
      This server's operator sets up its local models and decides where they are used; ask them, or use a server of your
      own.
    </p>
  );
}
