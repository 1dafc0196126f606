"""The shared machinery every game is built from: cards, actions, tricks, views."""
