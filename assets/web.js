// The browser door's page (minefield/frontdoor/web_door.py): "Start again" once a session has
// ended. textual.js (textual-serve's client) does the rest.
window.addEventListener("DOMContentLoaded", () => {
  const again = document.getElementById("again");
  if (again) {
    again.addEventListener("click", () => window.location.reload());
  }
});
