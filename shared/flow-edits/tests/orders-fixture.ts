/** A definition with what a user's file has: comments above and beside steps, blank lines, inline and block maps, both quotes. */
export const ORDERS = `# Orders: comments, blank lines and mixed styles the edits must keep.
connectors:
  web: {type: http, port: 0}   # loopback

flows:
  orders:
    source: {type: http, path: /orders, methods: [POST]}
    steps:
      # reject empty orders first
      - name: require items
        filter:
          condition: has(body.items)
          reject: {status: 400, body: '"no items"'}

      - set:
          vars: {count: 'size(body.items)'}   # how many

      - switch:
          cases:
            - when: vars.count > 10
              steps:
                - log: {message: '"big order"'}
          default:
            - log: {message: "'small order'"}
      - log:
          message: '"done"'
`;
